import Foundation
import ServiceReplayShared

/// The server's end of one WebSocket, shared by a handler (on any thread) and the connection that speaks it: the
/// handler answers an upgrade with ``HTTPReply/webSocket(_:)``, sends through this session and reads the client's
/// messages from ``events``. What the handler sends waits here until the connection takes it (one wake-up per
/// burst, and only while the client keeps reading), in order.
///
/// A session serves one connection; the first that carries it out claims it.
package final class WebSocketSession: Sendable {
    /// What the handler asked the connection to do, in order.
    enum Outgoing: Sendable {
        /// Bytes to write as they are: an encoded frame, or a raw fault.
        case bytes(Data)
        /// Send this close frame, then wait (bounded) for the client's.
        case close(WebSocketClose)
        /// End the connection now, with RST when `reset`.
        case drop(reset: Bool)
    }

    private struct State {
        var outbox: [Outgoing] = []
        /// Set by the connection: called (outside the lock) when something new is in the outbox.
        var wake: (@Sendable () -> Void)?
        /// Whether a wake-up is already on its way, so a burst of sends costs one.
        var wakeScheduled = false
        /// Whether a connection claimed the session.
        var claimed = false
        /// A close or drop was asked for, or the connection ended: later sends are ignored.
        var isFinishing = false
        /// The last event was delivered.
        var ended = false

        mutating func takeWake() -> (@Sendable () -> Void)? {
            guard !wakeScheduled, let wake else { return nil }
            wakeScheduled = true
            return wake
        }
    }

    /// The `101 Switching Protocols` head the connection writes (see ``WebSocketHandshake``); any other status is
    /// sent as an ordinary response and the session ends at once (``WebSocketEvent/ended``).
    package let response: HTTPResponse
    /// What the client may send before the wire refuses it with 1009.
    package let limits: WebSocketLimits
    /// What happens on the socket, in order, for one consumer; finishes after ``WebSocketEvent/closed(_:)``,
    /// ``WebSocketEvent/ended`` or ``WebSocketEvent/refused(_:)``.
    package let events: AsyncStream<WebSocketEvent>
    private let continuation: AsyncStream<WebSocketEvent>.Continuation
    private let state = Lock(State())

    /// A session that answers with `response` (the 101 a handler built) and holds the client to `limits`.
    package init(response: HTTPResponse, limits: WebSocketLimits = WebSocketLimits()) {
        self.response = response
        self.limits = limits
        (events, continuation) = AsyncStream.makeStream(of: WebSocketEvent.self)
    }

    /// Whether the events have ended (the client closed or left, the wire refused it, or the server stopped).
    package var hasEnded: Bool { state.withLock { $0.ended } }

    /// Sends `message` as one unmasked frame; ignored after ``close(_:)``, ``drop(reset:)`` or the end.
    package func send(_ message: WebSocketMessage) {
        switch message {
        case .text(let text): enqueue(.bytes(WebSocketFrameWriter.encode(WebSocketFrame(opcode: .text, payload: Data(text.utf8)))))
        case .binary(let data): enqueue(.bytes(WebSocketFrameWriter.encode(WebSocketFrame(opcode: .binary, payload: data))))
        }
    }

    /// Sends one message of `kind` as a frame per fragment (the first of `kind`, the others continuations, the last
    /// final), so that a client's reassembly is exercised; no fragment sends one empty frame. The fragments of a text
    /// message are its UTF-8 bytes, cut anywhere. Ignored as ``send(_:)`` is.
    package func send(fragments: [Data], kind: WebSocketMessage.Kind) {
        let fragments = fragments.isEmpty ? [Data()] : fragments
        var bytes = Data()
        for (index, fragment) in fragments.enumerated() {
            let opcode: WebSocketOpcode = index > 0 ? .continuation : kind == .text ? .text : .binary
            bytes.append(WebSocketFrameWriter.encode(WebSocketFrame(fin: index == fragments.count - 1, opcode: opcode, payload: fragment)))
        }
        // One outbox entry: another send cannot come between the fragments.
        enqueue(.bytes(bytes))
    }

    /// Writes `bytes` exactly as given (a malformed frame, a fault); ignored as ``send(_:)`` is.
    package func sendRaw(_ bytes: Data) {
        enqueue(.bytes(bytes))
    }

    /// Sends a close frame with `close`, after what was sent before; the connection then waits for the client's
    /// close frame (``WebSocketEvent/closed(_:)``), for at most 2 seconds on the loop's clock
    /// (``WebSocketEvent/ended`` after that), and closes. Later sends are ignored.
    package func close(_ close: WebSocketClose) {
        enqueue(.close(close), finishing: true)
    }

    /// Ends the connection without a close frame, after what was sent before: with RST when `reset`, else FIN.
    /// The events end with ``WebSocketEvent/ended``.
    package func drop(reset: Bool) {
        enqueue(.drop(reset: reset), finishing: true)
    }

    private func enqueue(_ item: Outgoing, finishing: Bool = false) {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.isFinishing else { return nil }
            state.isFinishing = finishing
            state.outbox.append(item)
            return state.takeWake()
        }
        wake?()
    }

    // MARK: - The connection's side

    /// Claims the session for a connection and registers its wake-up, called at once when something is already
    /// waiting; `false` when another connection claimed it first.
    func claim(_ wake: @escaping @Sendable () -> Void) -> Bool {
        let (claimed, now) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
            guard !state.claimed else { return (false, nil) }
            state.claimed = true
            state.wake = wake
            return (true, state.outbox.isEmpty ? nil : state.takeWake())
        }
        now?()
        return claimed
    }

    /// What the handler asked for since the last take, in order; re-arms the wake-up.
    func take() -> [Outgoing] {
        state.withLock { state in
            state.wakeScheduled = false
            defer { state.outbox.removeAll() }
            return state.outbox
        }
    }

    /// Hands `event` to the consumer; an ending event (anything but a message) finishes the stream, and drops what
    /// the handler still meant to send. Nothing is delivered after the end.
    func deliver(_ event: WebSocketEvent) {
        let deliver = state.withLock { state -> Bool in
            guard !state.ended else { return false }
            if case .message = event { return true }
            state.ended = true
            state.isFinishing = true
            state.outbox.removeAll()
            state.wake = nil
            return true
        }
        guard deliver else { return }
        continuation.yield(event)
        if case .message = event { return }
        continuation.finish()
    }
}

extension WebSocketMessage {
    /// Whether a message is text or binary.
    package enum Kind: Sendable, Hashable {
        case text
        case binary
    }
}
