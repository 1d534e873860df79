import Foundation

/// What the server does with one request: an ordinary response, or a deliberate wire-level behaviour
/// (closing, resetting, raw bytes, stalling, delaying, throttling), or an answer that comes later.
///
/// An open set: built-ins are static factories (`.response(_:)`, `.reset`, `.delayed(by:_:)`), and users
/// may add their own as `extension HTTPReply { static func ... }` composed from these.
/// Replies compose: `.delayed(by: .milliseconds(200), .throttled(bytesPerSecond: 1024, .response(r)))`.
package struct HTTPReply: Sendable {
    /// Only the wrapping cases are boxed, so an ordinary response costs no allocation.
    package enum Action: Sendable {
        case response(HTTPResponse)
        case raw(Data, then: Ending)
        case close
        case reset
        case stall
        indirect case delayed(nanoseconds: UInt64, HTTPReply)
        indirect case throttled(bytesPerSecond: Int, HTTPReply)
        case deferred(@Sendable (HTTPResponder) -> Void)
        case stream(HTTPStream)
        case live(LiveStream)
        case webSocket(WebSocketSession)
    }

    /// What happens to the connection after raw bytes have been written.
    package enum Ending: Sendable, Hashable {
        /// Close gracefully (FIN).
        case close
        /// Close with a TCP reset (RST).
        case reset
        /// Keep the connection open without answering, until the client closes or the server stops.
        case stall
        /// Keep serving further requests on the connection, as after an ordinary response.
        case keepAlive
    }

    package let action: Action

    /// A reply carrying out `action`; internal for the factories in other files (``webSocket(_:)``).
    init(_ action: Action) {
        self.action = action
    }

    /// Sends `response`. The server adds `Content-Length` from the body when the response has neither
    /// `Content-Length` nor `Transfer-Encoding`, adds `Date` and `Server` as configured, and omits the
    /// body for `HEAD` requests and for 1xx, 204 and 304. `Connection` and `Keep-Alive` are hop-by-hop,
    /// so the server writes its own (`Connection: close` when it closes afterwards); a handler's
    /// `Connection: close` makes it close. A `Content-Length` set by the handler is sent unchanged even
    /// when it does not match the body (a deliberate truncation); the connection is then closed after
    /// the body. A `Transfer-Encoding` set by the handler is sent unchanged with the body as given
    /// (already encoded), and the connection is closed after it.
    package static func response(_ response: HTTPResponse) -> HTTPReply {
        HTTPReply(.response(response))
    }

    /// Sends a response built from its parts; see ``response(_:)``.
    package static func response(status: Int, headers: HTTPHeaders = [:], body: Data = Data()) -> HTTPReply {
        HTTPReply(.response(HTTPResponse(status: status, headers: headers, body: body)))
    }

    /// Sends `stream`'s head at once, then each part when it is due, then ends as the stream says. For
    /// HTTP/1.1 the body is chunked and a complete stream keeps the connection; an HTTP/1.0 client gets
    /// the bytes unframed and the connection closes after them. Inside ``throttled(bytesPerSecond:_:)``,
    /// the whole stream is sent as one body at that rate. A client that closes its side ends the stream.
    package static func stream(_ stream: HTTPStream) -> HTTPReply {
        HTTPReply(.stream(stream))
    }

    /// Sends `stream`'s head at once, then each part as soon as its producer hands it over, framed as for
    /// ``stream(_:)``, then ends as the producer says. A client that closes its side cancels `stream`.
    package static func live(_ stream: LiveStream) -> HTTPReply {
        HTTPReply(.live(stream))
    }

    /// Writes `bytes` exactly as given (no status line or headers are added), then ends the connection
    /// as `ending` says (default: close gracefully). Used for truncated, malformed or garbage answers.
    package static func raw(_ bytes: Data, then ending: Ending = .close) -> HTTPReply {
        HTTPReply(.raw(bytes, then: ending))
    }

    /// Closes the connection gracefully (FIN) without writing anything for this request. Answers to
    /// earlier pipelined requests are still written first.
    package static let close = HTTPReply(.close)

    /// Resets the connection (SO_LINGER 0, then close, so the client sees RST) without answering.
    package static let reset = HTTPReply(.reset)

    /// Never answers: the connection stays open, its input is read and discarded, no timeout applies,
    /// until the client closes it or the server stops (``HTTPServer/stop()`` still closes it promptly).
    package static let stall = HTTPReply(.stall)

    /// Waits `delay` on the event loop (no thread is blocked), then carries out `reply`.
    /// Negative delays count as zero.
    package static func delayed(by delay: Duration, _ reply: HTTPReply) -> HTTPReply {
        HTTPReply(.delayed(nanoseconds: delay.clampedNanoseconds, reply))
    }

    /// Carries out `reply`, but writes its bytes (status line, headers and body, or raw bytes) at no more
    /// than `bytesPerSecond` (minimum 1), in small timed slices, before the reply's ending applies.
    package static func throttled(bytesPerSecond: Int, _ reply: HTTPReply) -> HTTPReply {
        HTTPReply(.throttled(bytesPerSecond: max(1, bytesPerSecond), reply))
    }

    /// Answers later: `body` is called on the event-loop thread with a one-shot ``HTTPResponder`` that
    /// may be completed from any thread at any time. Later pipelined requests on the same connection
    /// wait, so answers stay in request order. `body` must not block.
    package static func deferred(_ body: @escaping @Sendable (HTTPResponder) -> Void) -> HTTPReply {
        HTTPReply(.deferred(body))
    }

    /// Answers with the result of `work`, run in a new unstructured task off the cooperative pool (see
    /// ``ServerTaskExecutor``); the task is cancelled when the connection closes first (client gone or server
    /// stopped). See ``deferred(_:)``.
    static func async(_ work: @escaping @Sendable () async -> HTTPReply) -> HTTPReply {
        deferred { responder in
            let task = ServerTaskExecutor.task { responder.send(await work()) }
            responder.onCancel { task.cancel() }
        }
    }
}

extension Duration {
    /// Whole nanoseconds, with negative durations as zero and huge ones saturated.
    package var clampedNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        guard seconds < 1 << 33 else { return UInt64(1) << 63 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
