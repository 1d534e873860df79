import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What opens WebSocket connections for a ``WebServiceClient``: ``URLSessionWebSocketTransport`` by default
/// (``WebServiceClient/Configuration/webSocketTransport``); a test double or another stack may stand in.
///
/// Contract for implementations:
/// - ``open(_:subprotocols:)`` returns once the opening handshake succeeded (the server answered `101`), and
///   throws otherwise: ``WebSocketUpgradeRefused`` when the server answered with another status, else the error
///   of the failure (a `URLError` where you can; the client maps it with
///   ``WebServiceError/Network/init(transportError:)``);
/// - when the calling task is cancelled during the handshake, stop promptly and throw.
public protocol WebSocketTransport: Sendable {
    /// Opens a WebSocket connection for `request` (a `ws` or `wss` URL, the client's headers, a `GET`),
    /// offering `subprotocols` in `Sec-WebSocket-Protocol` when there are any.
    func open(_ request: URLRequest, subprotocols: [String]) async throws -> any WebSocketTransportConnection
}

/// One open WebSocket connection of a ``WebSocketTransport``.
///
/// Contract for implementations:
/// - ``receive()`` returns the peer's messages in order, each once, to the calls in the order they were made;
///   after the peer's close frame it returns ``WebSocketEvent/close(_:)`` with its code and reason (a frame
///   without a code as ``WebSocketCloseCode/noStatusReceived``), and so does every later call. It throws when the
///   connection broke without a close frame (a drop, RFC 6455's 1006). It need not watch for task
///   cancellation: the client calls ``close(_:)`` when the receiving task is cancelled;
/// - ``close(_:)`` returns at once and never blocks: it starts the closing handshake (or just drops a connection
///   that cannot take it). A ``receive()`` waiting then ends promptly, with a close event or by throwing; later
///   calls of ``send(_:)`` throw. Calling it again does nothing;
/// - all of it may be called from several tasks at once.
public protocol WebSocketTransportConnection: Sendable {
    /// The subprotocol the server chose from those offered, or `nil` when it chose none.
    var subprotocol: String? { get }

    /// Sends `message` as one text or binary message; throws when the connection is closed or broke.
    func send(_ message: WebSocketMessage) async throws

    /// The next message from the peer, or its close frame; throws when the connection broke without one.
    func receive() async throws -> WebSocketEvent

    /// Closes the connection with `frame` (its reason at most ``WebSocketCloseFrame/maximumReasonLength``
    /// bytes of UTF-8, as the client sends it). Returns at once.
    func close(_ frame: WebSocketCloseFrame)
}

/// A WebSocket handshake the server refused: it answered the upgrade request with a status other than
/// `101 Switching Protocols`. What a ``WebSocketTransport`` throws then; the client reports it as the
/// network-level `.badResponse`, with the status in ``WebServiceError/statusCode`` and this as the underlying
/// error.
public struct WebSocketUpgradeRefused: Error, Hashable, Sendable, CustomStringConvertible {
    /// The status the server answered with (`401`, `404`, or `200` from a server that does not speak
    /// WebSocket at that path).
    public var statusCode: Int

    /// A refusal with `statusCode`.
    public init(statusCode: Int) {
        self.statusCode = statusCode
    }

    /// One sentence for logs.
    public var description: String {
        "The server refused the WebSocket upgrade with HTTP \(statusCode) instead of 101 Switching Protocols."
    }
}
