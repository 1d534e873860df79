import Foundation

/// A WebSocket conversation as a cassette stores it: the upgrade's answer, every data message in the order it
/// crossed the socket with its direction and time offset, and how the conversation ended.
///
/// In the file, an interaction holds `"webSocket"` instead of `"response"`:
///
/// ```json
/// "webSocket": {
///   "response": {"status": 101, "headers": [["Upgrade", "websocket"], ["Connection", "Upgrade"]]},
///   "messages": [
///     {"from": "client", "offsetMs": 0, "text": "{\"subscribe\":\"BTC\"}"},
///     {"from": "server", "offsetMs": 12, "text": "{\"price\":97000}"},
///     {"from": "server", "offsetMs": 40, "base64": "AAEC"}
///   ],
///   "close": {"by": "server", "code": 1000, "reason": "bye", "offsetMs": 52}
/// }
/// ```
///
/// - `offsetMs` counts whole milliseconds from the upgrade's answer and never decreases.
/// - A text message is `"text"` (UTF-8, as sent); a binary one is `"base64"`.
/// - The conversation ends in exactly one way: `"close"` (a close frame, `by` the `client` or the `server`,
///   `code` left out for a close frame without one), `"dropped"` (the connection ended without a close frame:
///   `{"by": "server", "offsetMs": N}`), or neither when the recording stopped while the socket was still open.
/// - Pings and pongs are not recorded: the server answers a ping on its own.
package struct RecordedWebSocket: Sendable, Hashable {
    /// Which end of the socket sent a message or ended the conversation.
    package enum Side: String, Sendable, Hashable {
        /// The app (the side that sent the upgrade request).
        case client
        /// The API.
        case server
    }

    /// One data message and when it crossed the socket.
    package struct Message: Sendable, Hashable {
        /// Who sent it.
        package var from: Side
        /// Milliseconds from the upgrade's answer.
        package var offsetMs: Int
        /// What it carried.
        package var content: Content

        /// A message sent by `from`, `offsetMs` milliseconds after the upgrade.
        package init(from: Side, offsetMs: Int, _ content: Content) {
            self.from = from
            self.offsetMs = offsetMs
            self.content = content
        }
    }

    /// A data message's payload, as its frame type says.
    package enum Content: Sendable, Hashable {
        /// A text message (always valid UTF-8 on the wire).
        case text(String)
        /// A binary message.
        case binary(Data)

        /// The payload's bytes.
        package var data: Data {
            switch self {
            case .text(let text): Data(text.utf8)
            case .binary(let bytes): bytes
            }
        }
    }

    /// How the conversation ended.
    package enum Ending: Sendable, Hashable {
        /// A close frame: who sent it first, its code (`nil` for a close frame without one) and reason.
        case closed(by: Side, code: Int?, reason: String, offsetMs: Int)
        /// The connection ended without a close frame, from `by`'s end.
        case dropped(by: Side, offsetMs: Int)
        /// The recording stopped while the socket was still open; replay keeps it open after the last message.
        case unfinished
    }

    /// The upgrade's answer: `101` and its headers as recorded (no body).
    package var response: RecordedResponse
    /// The data messages in the order they crossed the socket.
    package var messages: [Message]
    /// How it ended; default ``Ending/unfinished``.
    package var ending: Ending

    /// A conversation answered by `response`, with `messages`, that ended as `ending` says.
    package init(response: RecordedResponse, messages: [Message], ending: Ending = .unfinished) {
        self.response = response
        self.messages = messages
        self.ending = ending
    }

    /// How many messages each side sent.
    package var messageCounts: (client: Int, server: Int) {
        let client = messages.count { $0.from == .client }
        return (client, messages.count - client)
    }
}
