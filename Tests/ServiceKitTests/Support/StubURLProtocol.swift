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
        /// Sends the head and the first part at once, then each further part when the test calls
        /// ``Stub/release()`` (at most 10 s each), then finishes, or fails with `failure` when given.
        case stream(status: Int, headers: [String: String], parts: [Data], failure: URLError?)
    }

    /// What one host's stub did, for the test to inspect.
    final class Stub: Sendable {
        let behaviour: Behaviour
        let started: AsyncStream<Void>
        let startedContinuation: AsyncStream<Void>.Continuation
        /// Yields each time URLSession stops the load.
        let stopped: AsyncStream<Void>
        private let stoppedContinuation: AsyncStream<Void>.Continuation
        private let counters = Lock((stops: 0, body: Data?.none, method: String?.none))
        private let gate = DispatchSemaphore(value: 0)

        init(_ behaviour: Behaviour) {
            self.behaviour = behaviour
            (started, startedContinuation) = AsyncStream.makeStream()
            (stopped, stoppedContinuation) = AsyncStream.makeStream()
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
            gate.signal()
            stoppedContinuation.yield()
        }

        /// Lets a `.stream` stub send its next part.
        func release() {
            gate.signal()
        }

        /// Waits for ``release()`` (or a stop); `false` after 10 s without one.
        func awaitRelease() -> Bool {
            gate.wait(timeout: .now() + 10) == .success
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
        case .stream(let status, let headers, let parts, let failure):
            let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1",
                                           headerFields: headers)!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            let loader = PartLoader(urlProtocol: self, stub: stub)
            if let first = parts.first {
                loader.load(first)
            }
            // Later parts come from another thread, as a network would deliver them.
            DispatchQueue.global().async {
                loader.loadRest(parts.dropFirst(), thenFail: failure)
            }
        }
    }

    /// Delivers a `.stream` stub's parts from a background thread. URLProtocol and its client are not
    /// Sendable, but URLSession allows calling the client from any thread; only that happens here.
    private struct PartLoader: @unchecked Sendable {
        let urlProtocol: StubURLProtocol
        let stub: Stub

        func load(_ part: Data) {
            urlProtocol.client?.urlProtocol(urlProtocol, didLoad: part)
        }

        func loadRest(_ parts: ArraySlice<Data>, thenFail failure: URLError?) {
            for part in parts {
                guard stub.awaitRelease(), stub.stops == 0 else { return }
                load(part)
            }
            guard stub.stops == 0 else { return }
            if let failure {
                urlProtocol.client?.urlProtocol(urlProtocol, didFailWithError: failure)
            } else {
                urlProtocol.client?.urlProtocolDidFinishLoading(urlProtocol)
            }
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
