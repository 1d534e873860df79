import Foundation

/// Puts a peer's frames back together into messages (RFC 6455 §5.4): a text or binary frame starts a message,
/// continuation frames extend it, the final frame completes it; control frames may come between its frames and are
/// handed over at once. Refuses a continuation without a message to continue and a new message before the last one
/// ended (1002), a text message or close reason that is not valid UTF-8 (1007), a message over ``maxMessageSize``
/// (1009), and a malformed close body (1002).
package struct WebSocketMessageAssembler: Sendable {
    /// What one frame amounted to.
    package enum Outcome: Sendable, Hashable {
        /// A fragment of a message still incomplete: nothing to do yet.
        case fragment
        /// A whole message.
        case message(WebSocketMessage)
        /// A ping with its payload, which the receiver answers with a pong carrying the same.
        case ping(Data)
        /// A pong with its payload.
        case pong(Data)
        /// A well-formed close frame.
        case close(WebSocketClose)
        /// The frame breaks the protocol; the connection must close with this close.
        case refused(WebSocketClose)
    }

    /// The largest message accepted, in bytes.
    package let maxMessageSize: Int
    /// The kind of the message in progress (text or binary), `nil` between messages.
    private var kind: WebSocketOpcode?
    private var buffer = Data()

    /// An assembler refusing messages over `maxMessageSize` bytes.
    package init(maxMessageSize: Int) {
        self.maxMessageSize = max(0, maxMessageSize)
    }

    /// Takes the next frame, in the order the peer sent them.
    package mutating func add(_ frame: WebSocketFrame) -> Outcome {
        switch frame.opcode {
        case .ping:
            return .ping(frame.payload)
        case .pong:
            return .pong(frame.payload)
        case .close:
            switch WebSocketClose.parse(frame.payload) {
            case .close(let close): return .close(close)
            case .refused(let close): return .refused(close)
            }
        case .text, .binary:
            guard kind == nil else { return .refused(.protocolError("A new message began before the previous one ended.")) }
            kind = frame.opcode
            buffer = Data()
        case .continuation:
            guard kind != nil else { return .refused(.protocolError("A continuation frame came without a message to continue.")) }
        }
        guard buffer.count + frame.payload.count <= maxMessageSize else {
            return .refused(.tooBig("A message is over the limit of \(maxMessageSize) bytes."))
        }
        // The first frame's payload is taken as it is: an unfragmented message is never copied.
        if buffer.isEmpty { buffer = frame.payload } else { buffer.append(frame.payload) }
        guard frame.fin, let complete = kind else { return .fragment }
        let payload = buffer
        kind = nil
        buffer = Data()
        guard complete == .text else { return .message(.binary(payload)) }
        guard let text = String(validUTF8: payload) else { return .refused(.invalidData("A text message is not valid UTF-8.")) }
        return .message(.text(text))
    }
}
