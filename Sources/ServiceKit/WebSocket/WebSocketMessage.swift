import Foundation

/// One WebSocket message as it travels: text (a text frame, UTF-8) or bytes (a binary frame).
public enum WebSocketMessage: Hashable, Sendable {
    /// A text message.
    case text(String)
    /// A binary message.
    case binary(Data)

    /// The message's bytes: the UTF-8 of a text message, the data of a binary one.
    public var data: Data {
        switch self {
        case .text(let text): Data(text.utf8)
        case .binary(let data): data
        }
    }

    /// The message parsed as JSON, from a text or a binary message alike; `nil` when it is not JSON.
    public var json: JSON? {
        guard let document = try? JSONDocument.parse(data) else { return nil }
        return JSON(document: document)
    }
}

/// What a ``WebSocketTransportConnection`` receives next: a message, or the peer's close frame.
public enum WebSocketEvent: Hashable, Sendable {
    /// The peer sent a message.
    case message(WebSocketMessage)
    /// The peer closed the connection with this close frame; nothing follows it.
    case close(WebSocketCloseFrame)
}
