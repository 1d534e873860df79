import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking

/// A URLProtocol that answers inside the process, so URLSessionTransport's delegate plumbing runs for
/// real without a network. Each test registers a stub under its own host name (tests run in parallel).
final class StubURLProtocol: URLProtocol {
    enum Behaviour: Sendable {
        case respond(status: Int, headers: [String: String], body: Data)
        case fail(URLError)
        /// Never answers; URLSession must cancel it (a safety net fails it after 10 s).
        case hang
    }

    /// What one host's stub did, for the test to inspect.
    final class Stub: Sendable {
        let behaviour: Behaviour
        let started: AsyncStream<Void>
        let startedContinuation: AsyncStream<Void>.Continuation
        private let counters = Lock((stops: 0, body: Data?.none, method: String?.none))

        init(_ behaviour: Behaviour) {
            self.behaviour = behaviour
            (started, startedContinuation) = AsyncStream.makeStream()
        }

        var stops: Int { counters.withLock { $0.stops } }
        var receivedBody: Data? { counters.withLock { $0.body } }
        var receivedMethod: String? { counters.withLock { $0.method } }

        func recordStart(method: String?, body: Data?) {
            counters.withLock { $0.method = method; $0.body = body }
            startedContinuation.yield()
        }

        func recordStop() {
            counters.withLock { $0.stops += 1 }
        }
    }

    private static let stubs = Lock<[String: Stub]>([:])

    /// Registers `behaviour` for requests to `http://<host>/...` and returns its record.
    static func register(_ behaviour: Behaviour, host: String = UUID().uuidString.lowercased() + ".stub.test") -> (Stub, URL) {
        let stub = Stub(behaviour)
        stubs.withLock { $0[host] = stub }
        return (stub, URL(string: "http://\(host)")!)
    }

    /// A session configuration routing every request through this protocol.
    static var configuration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        return configuration
    }

    private var stub: Stub? {
        guard let host = request.url?.host else { return nil }
        return Self.stubs.withLock { $0[host] }
    }

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let stub else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotFindHost))
            return
        }
        stub.recordStart(method: request.httpMethod, body: request.httpBody ?? readBodyStream())
        switch stub.behaviour {
        case .respond(let status, let headers, let body):
            let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1",
                                           headerFields: headers)!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(self, didLoad: body)
            client?.urlProtocolDidFinishLoading(self)
        case .fail(let error):
            client?.urlProtocol(self, didFailWithError: error)
        case .hang:
            break
        }
    }

    override func stopLoading() {
        stub?.recordStop()
    }

    private func readBodyStream() -> Data? {
        guard let stream = request.httpBodyStream else { return nil }
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }
}
