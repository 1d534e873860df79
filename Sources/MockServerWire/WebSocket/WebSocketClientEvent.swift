import Foundation

/// What ``WebSocketClient/receive(timeout:)`` read from the server.
package enum WebSocketClientEvent: Sendable, Hashable {
    /// A whole message.
    case message(WebSocketMessage)
    /// A ping with its payload; the client has already answered it with a pong.
    case ping(Data)
    /// A pong with its payload.
    case pong(Data)
    /// The server's close frame; the caller answers it with ``WebSocketClient/close(code:reason:)`` (or not).
    case close(WebSocketClose)
    /// The server closed the TCP connection (or reset it); every later receive says the same.
    case ended
}

/// Why a ``WebSocketClient`` call failed, with a sentence saying so.
package enum WebSocketClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered the handshake with something other than 101: its status, headers and body.
    case rejected(status: Int, headers: HTTPHeaders, body: Data)
    /// The socket could not be opened, or failed, or the server's answer was no WebSocket handshake; the sentence
    /// says which.
    case failed(String)
    /// Nothing (or not enough) arrived, or the bytes could not be written, before the deadline.
    case timedOut(String)
    /// The server's frames broke the protocol; the client sent this close and closed the socket.
    case protocolViolation(WebSocketClose)

    package var description: String {
        switch self {
        case .rejected(let status, _, let body):
            "The server refused the WebSocket handshake with \(status): \(String(decoding: body.prefix(200), as: UTF8.self))"
        case .failed(let sentence): sentence
        case .timedOut(let sentence): sentence
        case .protocolViolation(let close): "The server broke the WebSocket protocol (\(close.code ?? 0)): \(close.reason)"
        }
    }
}
