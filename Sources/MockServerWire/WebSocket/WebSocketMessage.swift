import Foundation

/// A whole WebSocket data message, reassembled from its frames (RFC 6455 §5.6): text (valid UTF-8 on the wire) or
/// binary.
package enum WebSocketMessage: Sendable, Hashable {
    /// A text message.
    case text(String)
    /// A binary message.
    case binary(Data)
}

/// What happened on an open WebSocket, as the server's ``WebSocketSession`` tells it. A session's events end with
/// exactly one of ``closed(_:)``, ``ended`` and ``refused(_:)``.
package enum WebSocketEvent: Sendable, Hashable {
    /// A whole message from the client.
    case message(WebSocketMessage)
    /// The client sent a close frame with this close: the wire answered it (when the server had not sent its own
    /// first) and closed the connection.
    case closed(WebSocketClose)
    /// The TCP connection ended without a close frame from the client: the client dropped it, the server dropped
    /// it (``WebSocketSession/drop(reset:)``), the server stopped, or the client did not answer the server's close
    /// in time.
    case ended
    /// The wire closed the connection itself for a protocol violation or a limit, after sending this close
    /// (1002, 1007, 1009).
    case refused(WebSocketClose)
}

/// The limits the wire enforces on what a peer sends; beyond them it closes with 1009 (message too big).
package struct WebSocketLimits: Sendable, Hashable {
    /// The largest payload of one frame, in bytes; default 16 MiB.
    package var maxFrameSize: Int
    /// The largest reassembled message, in bytes; default 64 MiB.
    package var maxMessageSize: Int

    /// Limits of `maxFrameSize` and `maxMessageSize` bytes.
    package init(maxFrameSize: Int = 16 << 20, maxMessageSize: Int = 64 << 20) {
        self.maxFrameSize = maxFrameSize
        self.maxMessageSize = maxMessageSize
    }
}
