#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer

/// `mockserver-bench routing [--rounds R]`: what a client pays per request and per test to reach the same
/// recorded 300-byte answer four ways, measured in the same run, the order turning each round:
/// - `stub`: a `URLProtocol` that answers in-process with those bytes (what OHHTTPStubs or mattt/Replay do);
/// - `base`: a session of its own sent to the server's base URL (a socket, as the client chose);
/// - `routed`: a session from `sessionConfiguration()` asking `https://api.github.com` (answered in-process);
/// - `socket`: the same, with the server made to answer routed requests over loopback (the road before).
///
/// Per request: 100 GETs one after the other on one session; per test: start a server, one GET, stop (the
/// stub: make a session, one GET, end it), 20 times. Prints `per-request WAY MICROSECONDS` and
/// `per-test WAY MICROSECONDS`, each the median of R rounds (default 15).
enum RoutingCommand {
    static let path = "/users/octocat"

    static func run(_ arguments: [String]) async throws {
        var rounds = 15
        if !arguments.isEmpty {
            guard arguments.count == 2, arguments[0] == "--rounds", let value = Int(arguments[1]), value >= 1 else {
                throw BenchmarkError("routing takes --rounds R, a whole number of at least 1.")
            }
            rounds = value
        }
        _ = await URLSessionAddedHeaders.learned()
        var perRequest: [Way: [Double]] = [:]
        var perTest: [Way: [Double]] = [:]
        for round in 0..<rounds {
            let ways = Way.allCases
            for index in ways.indices {
                let way = ways[(index + round) % ways.count]
                perRequest[way, default: []].append(try await requests(100, way: way))
                perTest[way, default: []].append(try await tests(20, way: way))
            }
        }
        for way in Way.allCases {
            print("per-request \(way) \(String(format: "%.1f", median(perRequest[way] ?? [])))")
        }
        for way in Way.allCases {
            print("per-test \(way) \(String(format: "%.1f", median(perTest[way] ?? [])))")
        }
    }

    enum Way: String, CaseIterable, CustomStringConvertible {
        case stub, base, routed, socket
        var description: String { rawValue }
    }

    static let cassette = Cassette(
        name: "routing",
        interactions: [
            Interaction(
                request: RecordedRequest(method: "GET", target: path),
                response: RecordedResponse(status: 200, headers: ["Content-Type": "application/json"], body: .binary(BenchmarkPayload.json)))
        ])

    /// Microseconds per request for `count` GETs on one session of `way`.
    static func requests(_ count: Int, way: Way) async throws -> Double {
        try await withSession(way) { session, url in
            _ = try await session.data(from: url)  // the connection or route warm
            let clock = ContinuousClock()
            let elapsed = try await clock.measure {
                for _ in 0..<count { _ = try await session.data(from: url) }
            }
            return elapsed.microseconds / Double(count)
        }
    }

    /// Microseconds per test for `count` tests of one GET each.
    static func tests(_ count: Int, way: Way) async throws -> Double {
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            for _ in 0..<count {
                try await withSession(way) { session, url in _ = try await session.data(from: url) }
            }
        }
        return elapsed.microseconds / Double(count)
    }

    /// Runs `body` with a session of `way` and the URL it asks, then ends both (and the server).
    static func withSession<T>(_ way: Way, _ body: (URLSession, URL) async throws -> T) async throws -> T {
        if way == .stub {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.protocolClasses = [StubProtocol.self]
            let session = URLSession(configuration: configuration)
            defer { session.finishTasksAndInvalidate() }
            return try await body(session, URL(string: "https://api.github.com" + path)!)
        }
        var configuration = CassetteServer.Configuration(faults: .none)
        configuration.answersRoutedRequestsInProcess = way != .socket
        let server = try CassetteServer(cassettes: [cassette], configuration: configuration)
        let baseURL = try await server.start()
        let session: URLSession
        let url: URL
        if way == .base {
            session = URLSession(configuration: .ephemeral)
            url = baseURL.appendingPathComponent(String(path.dropFirst()))
        } else {
            session = URLSession(configuration: try server.sessionConfiguration())
            url = URL(string: "https://api.github.com" + path)!
        }
        do {
            let result = try await body(session, url)
            session.finishTasksAndInvalidate()
            await server.stop()
            return result
        } catch {
            session.finishTasksAndInvalidate()
            await server.stop()
            throw error
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}

/// The in-process stub the routed road is measured against: the same status, headers and bytes, handed to
/// the client inside `startLoading`.
final class StubProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let response = HTTPURLResponse(
            url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": "application/json", "Content-Length": String(BenchmarkPayload.json.count)])!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: BenchmarkPayload.json)
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}

extension Duration {
    fileprivate var microseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }
}
#endif
