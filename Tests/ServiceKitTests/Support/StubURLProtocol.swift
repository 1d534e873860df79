import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

/// A URLProtocol that answers inside the process, so URLSessionTransport's delegate plumbing runs for
/// real without a network. Each test registers a stub under its own host name (tests run in parallel).
final class StubURLProtocol: URLProtocol {
    enum Behaviour: Sendable {
        case respond(status: Int, headers: [String: String], body: Data)
        case fail(URLError)
        /// Never answers; only cancelling the task ends it.
        case hang
        /// Sends the head and the first part at once, then one more part each time the test calls
        /// ``Stub/release()``; the release after the last part finishes the response, or fails it with
        /// `failure` when given. Nothing happens on a clock: however long the test takes to release, the
        /// load waits for it (a stopped load ignores releases).
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
        private let delivery = Lock(PartDelivery())

        init(_ behaviour: Behaviour) {
            self.behaviour = behaviour
            (started, startedContinuation) = AsyncStream.makeStream()
            (stopped, stoppedContinuation) = AsyncStream.makeStream()
        }

        var stops: Int { counters.withLock { $0.stops } }
        var receivedBody: Data? { counters.withLock { $0.body } }
        var receivedMethod: String? { counters.withLock { $0.method } }

        func recordStart(method: String?, body: Data?) {
            counters.withLock {
                $0.method = method; $0.body = body
            }
            startedContinuation.yield()
        }

        func recordStop() {
            counters.withLock { $0.stops += 1 }
            delivery.withLock { $0.stop() }
            stoppedContinuation.yield()
        }

        /// Makes a `.stream` stub send its next part, or end the response after the last one. Called from
        /// the test's thread, as a network's bytes would come; the part is sent from the load's client thread.
        func release() {
            let thread = delivery.withLock { delivery in
                delivery.releases += 1
                return delivery.rest?.thread
            }
            thread?.perform { self.sendReleased() }
        }

        /// Hands the rest of a `.stream` response to the releases, counting those already made.
        func deliverRest(_ rest: PartDelivery.Rest) {
            let started = delivery.withLock { delivery in
                guard !delivery.stopped else { return false }
                delivery.rest = rest
                return true
            }
            if started { rest.thread.perform { self.sendReleased() } }
        }

        /// Sends a part (or the end) for each release not yet acted on; runs on the load's client thread.
        /// The client is called with the lock held, so parts arrive in release order and never after a stop
        /// (URLSession traps when a finished task's protocol calls its client).
        private func sendReleased() {
            delivery.withLock { delivery in
                while delivery.releases > 0, var current = delivery.rest {
                    delivery.releases -= 1
                    let client = current.urlProtocol.client
                    if let part = current.parts.popFirst() {
                        client?.urlProtocol(current.urlProtocol, didLoad: part)
                        delivery.rest = current
                    } else if let failure = current.failure {
                        client?.urlProtocol(current.urlProtocol, didFailWithError: failure)
                        delivery.rest = nil
                    } else {
                        client?.urlProtocolDidFinishLoading(current.urlProtocol)
                        delivery.rest = nil
                    }
                }
            }
        }
    }

    /// The parts of a `.stream` response still to send, and the releases not yet acted on.
    struct PartDelivery {
        /// What is left to send once the head and the first part are out, and where to send it from.
        struct Rest: @unchecked Sendable {
            // URLProtocol is not Sendable; it is only used on its client thread.
            let urlProtocol: StubURLProtocol
            var parts: ArraySlice<Data>
            let failure: URLError?
            /// The thread that ran `startLoading`: Apple's URLSession requires every client call there.
            let thread: URLProtocolClientThread
        }

        var rest: Rest?
        var releases = 0
        var stopped = false

        mutating func stop() {
            stopped = true
            rest = nil
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
            let response = HTTPURLResponse(
                url: request.url!, statusCode: status, httpVersion: "HTTP/1.1",
                headerFields: headers)!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(self, didLoad: body)
            client?.urlProtocolDidFinishLoading(self)
        case .fail(let error):
            client?.urlProtocol(self, didFailWithError: error)
        case .hang:
            break
        case .stream(let status, let headers, let parts, let failure):
            let response = HTTPURLResponse(
                url: request.url!, statusCode: status, httpVersion: "HTTP/1.1",
                headerFields: headers)!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            if let first = parts.first {
                client?.urlProtocol(self, didLoad: first)
            }
            stub.deliverRest(
                PartDelivery.Rest(
                    urlProtocol: self, parts: parts.dropFirst(), failure: failure,
                    thread: URLProtocolClientThread()))
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
