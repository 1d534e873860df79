import Foundation

/// A one-shot handle for answering a request later, from any thread (see ``HTTPReply/deferred(_:)``).
///
/// The first ``send(_:)`` wins; later calls are ignored. If the responder is released without an answer,
/// the server answers `500 Internal Server Error` so the connection never hangs on a forgotten request.
package final class HTTPResponder: Sendable {
    private let pending: PendingAnswer

    init(pending: PendingAnswer) {
        self.pending = pending
    }

    deinit {
        pending.abandon()
    }

    /// Answers the request with `reply`; returns `false` (and does nothing) when it was already answered
    /// or the connection has closed. Safe from any thread, including inside the deferred body.
    @discardableResult
    package func send(_ reply: HTTPReply) -> Bool {
        pending.send(reply)
    }

    /// Whether the connection closed (client gone or server stopped) before an answer was sent.
    var isCancelled: Bool {
        pending.isCancelled
    }

    /// Registers `handler` to run once if the connection closes before an answer is sent; it runs at once
    /// when that has already happened, and never once an answer was sent. Handlers run on an event-loop
    /// thread (or the caller's) and must be quick.
    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        pending.onCancel(handler)
    }
}
