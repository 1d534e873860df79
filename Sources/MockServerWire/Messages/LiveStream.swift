import Foundation
import ServiceReplayShared

/// A response body that is still arriving from elsewhere (a forwarded upstream stream, the journal's events):
/// a producer on any thread hands over parts as they come and finally an ending; the connection sends each
/// part as one chunk as soon as the client has read what came before (it takes parts while it has less than
/// ``Connection/relayOutputLimit`` bytes unwritten). Nothing is buffered beyond the parts not yet sent; a
/// producer that must not run ahead of a slow client paces itself with ``pendingByteCount`` and
/// ``whenTaken(_:)``.
///
/// A body whose length is known when its head is sent (``declaredLength``) goes out with that
/// `Content-Length` instead, its parts unframed: the producer hands over exactly that many bytes, or the
/// connection closes after the bytes it got, and the client sees the body cut short.
package final class LiveStream: Sendable {
    private struct State {
        var pending: [Data] = []
        /// The bytes in `pending`.
        var pendingBytes = 0
        var ending: HTTPStream.Ending?
        /// Set by the connection: called (outside the lock) when something new is pending.
        var wake: (@Sendable () -> Void)?
        /// Whether a wake-up is already on its way, so a burst of parts costs one.
        var wakeScheduled = false
        var cancelled = false
        /// Called (outside the lock) once the client has gone.
        var onCancel: (@Sendable () -> Void)?
        /// Called (outside the lock) at the connection's next take.
        var onTaken: (@Sendable () -> Void)?

        mutating func takeWake() -> (@Sendable () -> Void)? {
            guard !wakeScheduled, let wake else { return nil }
            wakeScheduled = true
            return wake
        }
    }

    /// Status and headers; framing headers are left out, the server writes its own, except the
    /// `Content-Length` of a body of ``declaredLength``, which keeps its place.
    package let head: HTTPResponse
    /// The body's length in bytes when the producer declared it, sent as `Content-Length`; `nil` for a body
    /// sent chunked (HTTP/1.1) or ended by closing (HTTP/1.0).
    package let declaredLength: Int?
    private let state = Lock(State())

    /// A stream answering with `head` (its body and framing headers are ignored), chunked.
    package init(head: HTTPResponse) {
        self.head = HTTPStream(head: head, parts: []).head
        declaredLength = nil
    }

    /// A stream answering with `head` and a body of exactly `declaredLength` bytes (at least 0), sent with that
    /// `Content-Length` (where `head` has one, else after its fields) and unframed, so the connection may
    /// serve another request after it. `head`'s body and `Transfer-Encoding` are ignored.
    package init(head: HTTPResponse, declaredLength: Int) {
        var head = head
        head.headers.remove(name: "Transfer-Encoding")
        head.headers.set(name: "Content-Length", value: String(max(0, declaredLength)))
        head.body = Data()
        self.head = head
        self.declaredLength = max(0, declaredLength)
    }

    /// Hands over the next part; ignored after ``finish(_:)`` or once the client has gone.
    package func send(_ part: Data) {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.ending == nil, !state.cancelled, !part.isEmpty else { return nil }
            state.pending.append(part)
            state.pendingBytes += part.count
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

    /// The bytes handed over and not yet taken by the connection: what a producer holds in memory for a
    /// client that reads slowly.
    package var pendingByteCount: Int { state.withLock { $0.pendingBytes } }

    /// Calls `handler` once, when the connection next takes the pending parts (at once when none are
    /// pending), on the connection's thread: it must only note it and return.
    package func whenTaken(_ handler: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard state.pendingBytes > 0, !state.cancelled else { return true }
            state.onTaken = handler
            return false
        }
        if now { handler() }
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
        let (taken, onTaken) = state.withLock { state in
            state.wakeScheduled = false
            state.pendingBytes = 0
            defer {
                state.pending.removeAll(keepingCapacity: true)
                state.onTaken = nil
            }
            return ((state.pending, state.ending), state.onTaken)
        }
        onTaken?()
        return taken
    }

    /// The connection closed: later parts are dropped.
    package func cancel() {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            state.cancelled = true
            state.pending.removeAll()
            state.pendingBytes = 0
            state.wake = nil
            defer {
                state.onCancel = nil
                state.onTaken = nil
            }
            return state.ending == nil ? state.onCancel : nil
        }
        handler?()
    }
}
