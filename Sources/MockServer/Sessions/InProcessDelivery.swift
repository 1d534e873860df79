import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

/// One routed request answered in its client's process: the reply's head, body and stream parts are handed to
/// the protocol's client when they are due, as the loopback socket would have delivered them. It keeps the
/// loopback session's idle timeout (no byte for the request's timeout fails it with `timedOut`), and a server
/// that stops before the answer is complete fails it with `networkConnectionLost`, as its closed connection would.
///
/// Unchecked because `URLProtocol` is not `Sendable`: the delivery only hands the instance to its client, on
/// the thread that ran `startLoading` (``URLProtocolClientThread``).
final class InProcessDelivery: @unchecked Sendable {
    private let routing: URLProtocol
    private let originalURL: URL
    private let cookies: RoutedCookies?
    private let isHEAD: Bool
    private let reply: InProcessReply
    /// Asked for the head when it is due after a delay (its `Date` is of that moment), and whether it still runs.
    private weak var server: CassetteServer?
    /// Nanoseconds without a byte after which the request fails, as the loopback session's would.
    private let timeout: UInt64
    private let clientThread = URLProtocolClientThread()
    private let isCancelled = Lock(false)
    /// The stream's parts so far, when the client hears only a last load (``URLSessionQuirks/hearsEveryLoad(_:)``);
    /// `nil` when each is passed on when due.
    private let wholeBody: Lock<Data>?

    /// A delivery of `reply` to `routing`'s client, about `originalURL`, timing out after `timeout` seconds
    /// without a byte. Made in `startLoading`, on the thread the client's callbacks must be made on.
    init(
        reply: InProcessReply, to routing: URLProtocol, originalURL: URL, isHEAD: Bool, cookies: RoutedCookies?, server: CassetteServer,
        timeout: TimeInterval
    ) {
        self.reply = reply
        self.routing = routing
        self.originalURL = originalURL
        self.isHEAD = isHEAD
        self.cookies = cookies
        self.server = server
        let nanoseconds = timeout * 1e9
        self.timeout = nanoseconds > 0 && nanoseconds < 1e18 ? UInt64(nanoseconds) : .max / 4
        // Only a stream is handed over in parts; reading how the task was registered costs a reflection.
        wholeBody = reply.isStream && !URLSessionQuirks.hearsEveryLoad(routing.task) ? Lock(Data()) : nil
    }

    /// Starts delivering: `head` (the reply's, made just now) at once when no delay applies, else a fresh one
    /// when the delay is over.
    func start(head: ResponseHead) {
        let now = DispatchTime.now()
        guard reply.delay > 0 else { return deliver(head, at: now) }
        schedule(at: now.adding(reply.delay), lastByte: now) { delivery in
            guard let server = delivery.runningServer,
                let head = server.http.head(of: delivery.reply.response, isHEAD: delivery.isHEAD, streamed: delivery.reply.isStream)
            else { return delivery.fail(.networkConnectionLost) }
            delivery.deliver(head, at: .now())
        }
    }

    /// Stops every later call to the client: URLSession stopped the load and wants no word from it afterwards.
    func cancel() {
        isCancelled.withLock { $0 = true }
    }

    private var cancelled: Bool {
        isCancelled.withLock { $0 }
    }

    /// The server, while it runs.
    private var runningServer: CassetteServer? {
        server.flatMap { $0.baseURL == nil ? nil : $0 }
    }

    /// The head, then the whole body, or the stream's parts as they fall due.
    private func deliver(_ head: ResponseHead, at now: DispatchTime) {
        let fields = URLSessionQuirks.headerFields(head.lines.map { ($0.name, $0.value) })
        // As URLSession does, the cookies are stored before the client hears of the answer.
        cookies?.store(fields, from: originalURL, for: routing.request)
        let response = HTTPURLResponse(url: originalURL, statusCode: head.status, httpVersion: "HTTP/1.1", headerFields: fields)
        if let response {
            callClient { $0.urlProtocol($1, didReceive: response, cacheStoragePolicy: .notAllowed) }
        }
        guard head.hasBody else { return finish() }
        switch reply.content {
        case .whole(let whole):
            let body = whole.body
            callClient { $0.urlProtocol($1, didLoad: body) }
            finish()
        case .stream(let stream):
            deliverParts(of: stream, from: 0, start: now, lastByte: now)
        }
    }

    /// Every part of `stream` due by now, from `first` on, in one load; then the next due, or the end.
    private func deliverParts(of stream: HTTPStream, from first: Int, start: DispatchTime, lastByte: DispatchTime) {
        let now = DispatchTime.now()
        var next = first
        var bytes = Data()
        while next < stream.parts.count, start.adding(stream.due(next)) <= now {
            bytes += stream.parts[next].bytes
            next += 1
        }
        var lastByte = lastByte
        if !bytes.isEmpty {
            lastByte = now
            if let wholeBody {
                wholeBody.withLock { $0.append(bytes) }
            } else {
                callClient { [bytes] in $0.urlProtocol($1, didLoad: bytes) }
            }
        }
        guard next < stream.parts.count else { return finish() }
        schedule(at: start.adding(stream.due(next)), lastByte: lastByte) { [next, lastByte] delivery in
            guard delivery.runningServer != nil else { return delivery.fail(.networkConnectionLost) }
            delivery.deliverParts(of: stream, from: next, start: start, lastByte: lastByte)
        }
    }

    /// Runs `work` at `deadline`, or fails the request with `timedOut` when that is more than the timeout after
    /// the last byte; nothing once cancelled.
    private func schedule(at deadline: DispatchTime, lastByte: DispatchTime, _ work: @escaping @Sendable (InProcessDelivery) -> Void) {
        let timesOut = lastByte.adding(timeout)
        DispatchQueue.global().asyncAfter(deadline: min(deadline, timesOut)) { [self] in
            guard !cancelled else { return }
            if deadline > timesOut {
                fail(.timedOut)
            } else {
                work(self)
            }
        }
    }

    private func finish() {
        if let body = wholeBody?.withLock({ $0 }), !body.isEmpty {
            callClient { $0.urlProtocol($1, didLoad: body) }
        }
        callClient { $0.urlProtocolDidFinishLoading($1) }
    }

    /// The failure the client would get over the socket: the code, about the URL it asked for.
    private func fail(_ code: URLError.Code) {
        let error = URLError(code, userInfo: [NSURLErrorFailingURLErrorKey: originalURL])
        callClient { $0.urlProtocol($1, didFailWithError: error) }
    }

    /// Calls the protocol's client where it may be called, unless the load was stopped by then.
    private func callClient(_ work: @escaping @Sendable (any URLProtocolClient, URLProtocol) -> Void) {
        clientThread.perform { [self] in
            guard !cancelled, let client = routing.client else { return }
            work(client, routing)
        }
    }
}

extension DispatchTime {
    /// `nanoseconds` later, saturating far in the future.
    fileprivate func adding(_ nanoseconds: UInt64) -> DispatchTime {
        let (sum, overflow) = uptimeNanoseconds.addingReportingOverflow(min(nanoseconds, .max / 4))
        return DispatchTime(uptimeNanoseconds: overflow ? .max / 2 : sum)
    }
}
