import Foundation
import ServiceReplayShared

/// One open WebSocket connection of a ``WebSocketService``, from ``WebServiceClient/connect(to:)``: typed
/// messages in, typed messages out.
///
/// ```swift
/// let chat = try await client.connect(to: ChatService(room: "swift"))
/// try await chat.send(.init(text: "Hello"))
/// for try await message in chat.messages {
///     print(message.author, message.text)
/// }
/// ```
///
/// The connection stays open until the server closes it, it drops, ``close(code:reason:)`` is called, a task
/// iterating ``messages`` is cancelled, or the connection object goes away (which closes it with
/// ``WebSocketCloseCode/goingAway``). Nothing reconnects on its own: see ``WebServiceClient/connect(to:)``.
public final class WebSocketConnection<Service: WebSocketService>: Sendable {
    /// The service this connection was opened for.
    public let service: Service
    /// What carries the messages.
    let connection: any WebSocketTransportConnection
    /// Encodes what ``send(_:)`` sends, as the service's hook asks.
    let encoder: JSONEncoder
    /// Whether the app closed the connection (or a cancelled iteration did): receiving then ends normally.
    private let closedLocally = Lock(false)

    init(service: Service, connection: any WebSocketTransportConnection, encoder: JSONEncoder) {
        self.service = service
        self.connection = connection
        self.encoder = encoder
    }

    deinit {
        close(code: .goingAway)
    }

    /// The subprotocol the server chose from the service's ``WebSocketService/subprotocols``, or `nil` when it
    /// chose none.
    public var subprotocol: String? { connection.subprotocol }

    /// The messages from the server, each mapped by ``WebSocketService/incoming(from:)``; see
    /// ``WebSocketMessages`` for how the sequence ends and what it throws.
    public var messages: WebSocketMessages<Service> { WebSocketMessages(connection: self) }

    /// Sends `message` as ``WebSocketService/message(for:encoder:)`` makes it (by default JSON text encoded
    /// with the client's ``WebServiceClient/Configuration/jsonEncoder``).
    ///
    /// - Throws: ``WebServiceError`` only: `.service(.invalidRequest(_:))` when the message cannot be encoded
    ///   (nothing is sent); `.network(.cancelled)` when the calling task is cancelled before sending or the
    ///   connection was closed with ``close(code:reason:)``; `.network(.connectionLost)` (or `.timedOut`) when the
    ///   connection is closed or broke.
    public func send(_ message: Service.Outgoing) async throws(WebServiceError) {
        let encoded: WebSocketMessage
        do {
            encoded = try service.message(for: message, encoder: encoder)
        } catch let error as WebServiceError {
            throw error
        } catch {
            throw .service(.invalidRequest(Self.sentence(for: error)), underlyingError: error)
        }
        guard !Task.isCancelled, !isClosedLocally else { throw .network(.cancelled) }
        do {
            try await connection.send(encoded)
        } catch {
            throw .network(brokenConnectionFailure(error), underlyingError: error)
        }
    }

    /// Closes the connection with `code` (default ``WebSocketCloseCode/normalClosure``) and `reason` (default
    /// none; cut to ``WebSocketCloseFrame/maximumReasonLength`` bytes of UTF-8). Returns at once; an iteration of
    /// ``messages`` then ends normally, and ``send(_:)`` throws `.network(.cancelled)`. Calling it again does
    /// nothing.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        let first = closedLocally.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if first {
            connection.close(WebSocketCloseFrame(code: code, reason: reason).fitted)
        }
    }

    var isClosedLocally: Bool { closedLocally.withLock { $0 } }

    /// The failure of an exchange on an open connection: cancelled and timed out keep their names; anything
    /// else means the connection broke.
    func brokenConnectionFailure(_ error: any Error) -> WebServiceError.Network {
        if Task.isCancelled { return .cancelled }
        switch WebServiceError.Network(transportError: error) {
        case .cancelled: return .cancelled
        case .timedOut: return .timedOut
        default: return .connectionLost
        }
    }

    /// Why the message could not be made, in one sentence.
    private static func sentence(for error: any Error) -> String {
        if case EncodingError.invalidValue(let value, let context) = error {
            return "The message cannot be encoded as JSON: its value at \(JSONPath(codingPath: context.codingPath)) (\(value)) has no JSON form."
        }
        return "The message cannot be encoded: \(error)."
    }
}
