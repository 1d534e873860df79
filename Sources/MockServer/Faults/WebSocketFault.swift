import Foundation

/// A fault aimed at a replayed WebSocket conversation, carried out by its player after the upgrade succeeded:
/// the connection dropped, a close frame, a malformed frame or silence after `after` server messages, or every
/// server message from the `after`-th on delayed.
///
/// A conversation with fewer server messages than `after` gets the fault after its last one, so a fault never
/// vanishes because a recording is shorter than the plan thought.
struct WebSocketFault: Sendable, Hashable, CustomStringConvertible {
    enum Action: Sendable, Hashable {
        /// End the TCP connection without a close frame (what a client sees as an abnormal closure, 1006).
        case drop
        /// Send a close frame with this code, then end the connection once the client answers.
        case close(UInt16)
        /// Send a frame no client may accept (a reserved opcode with a reserved bit set), then drop.
        case malformed
        /// Send nothing more, keeping the connection open, until the client gives up.
        case stall
        /// Wait this much longer before each server message from the `after`-th on.
        case delay(Duration)
    }

    let action: Action
    /// How many server messages are sent before the fault strikes (for ``Action/delay(_:)``: before the first
    /// delayed one).
    let after: Int

    /// Whether the fault strikes now, with `sent` server messages sent.
    func strikes(before sent: Int) -> Bool {
        if case .delay = action { return false }
        return sent == after
    }

    /// Whether the fault strikes at the end of a conversation it has not struck yet (all but a delay).
    var strikesAtEnd: Bool {
        if case .delay = action { return false }
        return true
    }

    /// The extra wait before the server message that follows `sent` others; `nil` when there is none.
    func extraDelay(before sent: Int) -> Duration? {
        guard case .delay(let delay) = action, sent >= after else { return nil }
        return delay
    }

    /// The kind's name in the CLI spelling: `ws-drop`, `ws-close`, `ws-malformed`, `ws-stall` or `ws-delay`.
    var name: String {
        switch action {
        case .drop: "ws-drop"
        case .close: "ws-close"
        case .malformed: "ws-malformed"
        case .stall: "ws-stall"
        case .delay: "ws-delay"
        }
    }

    /// The layer it breaks: a close with an application's own code (4000–4999) is the service's error, as ServiceKit
    /// reads it; every other WebSocket fault, a 1011 close included, is network-level, as ServiceKit reports it
    /// (`connectionLost`).
    var family: Fault.Family {
        if case .close(let code) = action, (4000...4999).contains(code) { return .service }
        return .network
    }

    /// Whether a server may send it: a close code must be one RFC 6455 lets a peer send.
    var isSendable: Bool {
        guard case .close(let code) = action else { return true }
        return WebSocketClose.isSendable(code)
    }

    /// Why `ws-close` refuses the code spelled `code`, in one sentence.
    static func unsendableCode(_ code: String) -> String {
        "ws-close takes a close code a server may send (1000–1003, 1007–1014 or 3000–4999, such as ws-close=1011), not \(code)"
    }

    /// The CLI spelling: `ws-drop=2`, `ws-close=1011,after=1`, `ws-malformed`, `ws-stall=3`, `ws-delay=500ms,after=1`.
    var description: String {
        switch action {
        case .drop: after == 0 ? "ws-drop" : "ws-drop=\(after)"
        case .malformed: after == 0 ? "ws-malformed" : "ws-malformed=\(after)"
        case .stall: after == 0 ? "ws-stall" : "ws-stall=\(after)"
        case .close(let code): after == 0 ? "ws-close=\(code)" : "ws-close=\(code),after=\(after)"
        case .delay(let delay): "ws-delay=\(DurationSpelling.format(delay))" + (after == 0 ? "" : ",after=\(after)")
        }
    }
}
