import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A WebSocket endpoint of a web API: its parameters are the conforming type's properties, the messages it
/// receives become typed ``Incoming`` values, and the messages it sends are typed ``Outgoing`` values.
/// ``WebServiceClient/connect(to:)`` opens the connection.
///
/// Only ``endpoint`` is required when `Incoming` is `Decodable`: each message is then read as JSON, and each
/// ``Outgoing`` value sent as JSON text.
///
/// ```swift
/// struct ChatService: WebSocketService {
///     struct Incoming: Decodable, Sendable { var author: String; var text: String }
///     struct Outgoing: Encodable, Sendable { var text: String }
///     var room: String
///     var endpoint: String { "/rooms/\(room)/socket" }
/// }
/// ```
public protocol WebSocketService: Sendable {
    /// What each received message becomes.
    associatedtype Incoming: Sendable
    /// What the app sends. Default: ``NoOutgoingMessages``, for a service that only listens.
    associatedtype Outgoing: Encodable & Sendable = NoOutgoingMessages

    /// The path relative to the client's base URL, unescaped, as ``WebService/endpoint``. The base URL's
    /// scheme becomes the WebSocket one: `http` gives `ws`, `https` gives `wss`.
    var endpoint: String { get }

    /// Parameters for the query of the opening request, built from the service's properties; `nil` optionals
    /// disappear. The client's common parameters join them, as for every call. Default: none.
    var parameters: Parameters { get }

    /// How dates, booleans and arrays are written in the query. Default: ``ParameterFormatting/standard``.
    var parameterFormatting: ParameterFormatting { get }

    /// The subprotocols offered in `Sec-WebSocket-Protocol`, most wanted first; the server's choice is
    /// ``WebSocketConnection/subprotocol``. Default: none.
    var subprotocols: [String] { get }

    /// Adjusts the opening request (headers, such as an `Authorization` of the service's own) just before it
    /// is sent; what is set here wins over the client's headers. Default: nothing.
    func configure(_ request: inout URLRequest)

    /// Maps one received message to ``Incoming``, or `nil` to skip it (an API's keep-alive, say). Whatever it
    /// throws is thrown by the iteration as a service-level ``WebServiceError`` (a `WebServiceError` as it is,
    /// anything else as `.undecodableBody`). Default when `Incoming` is `Decodable`: the message (text or
    /// binary) parsed as JSON and decoded with ``messageDateFormat``: `.undecodableBody` when it is not JSON,
    /// `.missingField` or `.invalidField` with the key path when it does not fit.
    func incoming(from message: WebSocketMessage) throws -> Incoming?

    /// The message that carries `outgoing`. Whatever it throws fails the send with
    /// ``WebServiceError/Service/invalidRequest(_:)`` (a `WebServiceError` as it is), and nothing is sent.
    /// Default: `outgoing` as JSON text, encoded with `encoder`, the client's
    /// ``WebServiceClient/Configuration/jsonEncoder``.
    func message(for outgoing: Outgoing, encoder: JSONEncoder) throws -> WebSocketMessage

    /// Spots a close the API documents as an application error: a service-level error to throw when the
    /// server closes the connection with `close`, or `nil` to let the defaults judge it (codes 1000 and 1001 end
    /// the messages normally; every other close is `.network(.connectionLost)`). Default:
    /// ``WebSocketCloseFrame/applicationError``, which reads codes 4000–4999 as service-level.
    func serviceError(for close: WebSocketCloseFrame) -> WebServiceError.Service?

    /// How the default `Decodable` mapping reads dates. Default: ``DateFormat/iso8601``.
    var messageDateFormat: DateFormat { get }
}

/// The ``WebSocketService/Outgoing`` of a service that sends nothing: it has no values, so `send` cannot be
/// called with one. (`Never` is `Encodable` only from macOS 14 and iOS 17 on, newer than ServiceKit's floors.)
public enum NoOutgoingMessages: Encodable, Sendable {
    /// Never called: there is no value to encode.
    public func encode(to encoder: any Encoder) throws {
        switch self {}
    }
}

extension WebSocketService {
    /// None.
    public var parameters: Parameters { [:] }

    /// ISO 8601 dates, `true`/`false`, repeated names.
    public var parameterFormatting: ParameterFormatting { .standard }

    /// None.
    public var subprotocols: [String] { [] }

    /// Leaves the request as the client built it.
    public func configure(_ request: inout URLRequest) {}

    /// `outgoing` as JSON text, encoded with `encoder`.
    public func message(for outgoing: Outgoing, encoder: JSONEncoder) throws -> WebSocketMessage {
        .text(String(decoding: try encoder.encode(outgoing), as: UTF8.self))
    }

    /// ``WebSocketCloseFrame/applicationError``.
    public func serviceError(for close: WebSocketCloseFrame) -> WebServiceError.Service? {
        close.applicationError
    }

    /// ``DateFormat/iso8601``.
    public var messageDateFormat: DateFormat { .iso8601 }
}

extension WebSocketService where Incoming: Decodable {
    /// The message parsed as JSON and decoded with ``messageDateFormat``.
    ///
    /// - Throws: `.undecodableBody` when the message is not JSON; `.missingField` or `.invalidField` with the
    ///   key path when it does not fit `Incoming`.
    public func incoming(from message: WebSocketMessage) throws -> Incoming? {
        guard let json = message.json else { throw WebServiceError.service(.undecodableBody) }
        return try json.decode(Incoming.self, dateFormat: messageDateFormat)
    }
}

extension WebSocketCloseFrame {
    /// The default reading of a close as a service-level error: a code from 4000 to 4999 (RFC 6455's range for
    /// applications) is `.errorPayload(code: "4001", message: reason)`, the reason being `nil` when empty; any
    /// other code is no service-level error (`nil`).
    public var applicationError: WebServiceError.Service? {
        guard code.isApplicationDefined else { return nil }
        return .errorPayload(code: String(code.rawValue), message: reason.isEmpty ? nil : reason)
    }
}
