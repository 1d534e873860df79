import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One call of a web API that answers with a stream of server-sent events (`text/event-stream`) instead
/// of one response: its parameters are the conforming type's properties, each event becomes a typed
/// ``Event``. ``WebServiceClient/events(of:)`` does the networking and parsing.
///
/// Only ``endpoint`` and the mapping ``event(from:)`` are required; every other hook has a default:
///
/// ```swift
/// struct TickerService: StreamingService {
///     var symbol: String
///     var endpoint: String { "/ticks" }
///     var parameters: Parameters { ["symbol": symbol] }
///     func event(from message: ServerSentEvent) throws -> Double? {
///         try message.json?["price"].required.double
///     }
/// }
/// ```
public protocol StreamingService: Sendable {
    /// What each event of the stream becomes.
    associatedtype Event: Sendable

    /// The path of the call relative to the client's base URL, unescaped; as ``WebService/endpoint``.
    var endpoint: String { get }

    /// The HTTP method. Default: `.get`.
    var method: HTTPMethod { get }

    /// The request parameters, built from the service's properties; `nil` optionals disappear.
    /// Default: none.
    var parameters: Parameters { get }

    /// Where the parameters travel. Default: the method's ``HTTPMethod/defaultParameterEncoding``.
    var parameterEncoding: ParameterEncoding { get }

    /// How dates, booleans and arrays are written. Default: ``ParameterFormatting/standard``.
    var parameterFormatting: ParameterFormatting { get }

    /// Adjusts the finished request (headers, body) just before it is sent; what is set here wins over
    /// the client's defaults, among them `Accept: text/event-stream`. Default: nothing.
    func configure(_ request: inout URLRequest)

    /// Maps one server-sent event to ``Event``, or `nil` to skip it (a keep-alive, say). Whatever it throws
    /// ends the stream as a service-level ``WebServiceError`` (a `WebServiceError` as it is, anything else
    /// as `.undecodableBody`).
    func event(from message: ServerSentEvent) throws -> Event?

    /// Spots an error event from the API; it ends the stream with a service-level error after the events
    /// already delivered. Checked before ``isEndOfStream(_:)`` and ``event(from:)``. Default:
    /// ``ServerSentEvent/commonServiceError``.
    func serviceError(in message: ServerSentEvent) -> WebServiceError.Service?

    /// Whether `message` is the API's end-of-stream marker (such as `data: [DONE]`); the sequence ends
    /// there and the connection is closed. Default: never.
    func isEndOfStream(_ message: ServerSentEvent) -> Bool

    /// Whether a stream that ends without an end-of-stream marker was cut short: when `true`, such an
    /// ending is `.network(.connectionLost)`. Default: `false` (the end of the response ends the stream).
    var requiresEndOfStream: Bool { get }

    /// Spots a service-level error in a response that is not a stream (an error status, or a JSON error
    /// payload), read whole. Default: ``RawResponse/commonServiceError``. A non-2xx response is an error
    /// even when this returns `nil`; a 2xx one that is not `text/event-stream` is `.wrongContentType`.
    func serviceError(in reply: RawResponse) -> WebServiceError.Service?

    /// The network-level case for a transport failure before the stream started. Default:
    /// ``WebServiceError/Network/init(transportError:)``. Once the stream started, a failure is
    /// `.connectionLost`, `.timedOut` or `.cancelled`, whatever this says.
    func networkError(for failure: any Error) -> WebServiceError.Network
}

extension StreamingService {
    /// `.get`.
    public var method: HTTPMethod { .get }

    /// None.
    public var parameters: Parameters { [:] }

    /// The method's default: query string for GET, HEAD, DELETE, OPTIONS; JSON body otherwise.
    public var parameterEncoding: ParameterEncoding { method.defaultParameterEncoding }

    /// ISO 8601 dates, `true`/`false`, repeated names.
    public var parameterFormatting: ParameterFormatting { .standard }

    /// Leaves the request as the client built it.
    public func configure(_ request: inout URLRequest) {}

    /// ``ServerSentEvent/commonServiceError``.
    public func serviceError(in message: ServerSentEvent) -> WebServiceError.Service? {
        message.commonServiceError
    }

    /// Never.
    public func isEndOfStream(_ message: ServerSentEvent) -> Bool { false }

    /// `false`.
    public var requiresEndOfStream: Bool { false }

    /// ``RawResponse/commonServiceError``.
    public func serviceError(in reply: RawResponse) -> WebServiceError.Service? {
        reply.commonServiceError
    }

    /// ``WebServiceError/Network/init(transportError:)``.
    public func networkError(for failure: any Error) -> WebServiceError.Network {
        WebServiceError.Network(transportError: failure)
    }
}

extension ServerSentEvent {
    /// The default error-event detection: an event of type `error` is an `.errorPayload`, read from its
    /// JSON data in the shapes ``RawResponse/errorPayload`` lists, or with its data as the message when that
    /// is not JSON; any other event whose JSON data is such an error payload (`{"error": {...}}`) is one
    /// too. `nil` means nothing here looks like an error.
    public var commonServiceError: WebServiceError.Service? {
        let payload = json?.errorPayload
        if type == "error" {
            return payload ?? .errorPayload(code: nil, message: data.isEmpty ? nil : data)
        }
        return payload
    }
}
