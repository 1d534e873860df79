import Foundation
import ServiceReplayShared

/// A response body that is still arriving from elsewhere (a forwarded upstream stream): a producer on any
/// thread hands over parts as they come and finally an ending; the connection sends each part as one chunk
/// as soon as it is handed over. Nothing is buffered beyond the parts not yet sent.
package final class LiveStream: Sendable {
    private struct State {
        var pending: [Data] = []
        var ending: HTTPStream.Ending?
        /// Set by the connection: called (outside the lock) when something new is pending.
        var wake: (@Sendable () -> Void)?
        /// Whether a wake-up is already on its way, so a burst of parts costs one.
        var wakeScheduled = false
        var cancelled = false
        /// Called (outside the lock) once the client has gone.
        var onCancel: (@Sendable () -> Void)?

        mutating func takeWake() -> (@Sendable () -> Void)? {
            guard !wakeScheduled, let wake else { return nil }
            wakeScheduled = true
            return wake
        }
    }

    /// Status and headers; framing headers are left out, the server writes its own.
    package let head: HTTPResponse
    private let state = Lock(State())

    /// A stream answering with `head` (its body and framing headers are ignored).
    package init(head: HTTPResponse) {
        self.head = HTTPStream(head: head, parts: []).head
    }

    /// Hands over the next part; ignored after ``finish(_:)`` or once the client has gone.
    package func send(_ part: Data) {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.ending == nil, !state.cancelled, !part.isEmpty else { return nil }
            state.pending.append(part)
            return state.takeWake()
        }
        wake?()
    }

    /// Ends the stream as `ending` says, after the parts already handed over.
    package func finish(_ ending: HTTPStream.Ending) {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.ending == nil else { return nil }
            state.ending = ending
            return state.takeWake()
        }
        wake?()
    }

    /// Whether the client went away (the connection closed) before the end.
    package var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Calls `handler` once the client has gone before the end (at once if it has already), so that the
    /// producer can stop.
    package func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard !state.cancelled else { return true }
            state.onCancel = handler
            return false
        }
        if now { handler() }
    }

    // MARK: - The connection's side

    /// Registers the connection's wake-up and calls it at once when something is already pending.
    func attach(_ wake: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> (@Sendable () -> Void)? in
            state.wake = wake
            return state.pending.isEmpty && state.ending == nil ? nil : state.takeWake()
        }
        now?()
    }

    /// The parts pending and the ending if it came; re-arms the wake-up.
    func take() -> (parts: [Data], ending: HTTPStream.Ending?) {
        state.withLock { state in
            state.wakeScheduled = false
            defer { state.pending.removeAll(keepingCapacity: true) }
            return (state.pending, state.ending)
        }
    }

    /// The connection closed: later parts are dropped.
    package func cancel() {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            state.cancelled = true
            state.pending.removeAll()
            state.wake = nil
            defer { state.onCancel = nil }
            return state.ending == nil ? state.onCancel : nil
        }
        handler?()
    }
}
