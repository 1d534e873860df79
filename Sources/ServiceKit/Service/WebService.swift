import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One call of a web API: its parameters are the conforming type's properties, its result a dedicated
/// ``Response`` type. A ``WebServiceClient`` does the networking; a service only says what differs.
///
/// Only ``endpoint`` and the mapping ``response(from:)`` are required, and the mapping is not needed when
/// `Response` is `Decodable`. Every other hook has a default:
///
/// ```swift
/// struct LoginService: WebService {
///     var username: String
///     var password: String
///     var endpoint: String { "/login" }
///     var method: HTTPMethod { .post }
///     var parameterEncoding: ParameterEncoding { .form }
///     var parameters: Parameters { ["username": username, "password": password] }
///     func response(from json: JSON) throws -> LoginResponse {
///         LoginResponse(accessToken: try json["access_token"].required.string,
///                       signupDate: try json["signupdate"].required.date(.pattern("yyyy-MM-dd HH:mm:ss")))
///     }
/// }
/// ```
public protocol WebService: Sendable {
    /// What a successful call returns.
    associatedtype Response: Sendable

    /// The path of the call relative to the client's base URL, unescaped (`/users/\(login)`); ServiceKit
    /// percent-encodes it and appends it to the base URL's path. No query: parameters make the query.
    var endpoint: String { get }

    /// The HTTP method. Default: `.get`.
    var method: HTTPMethod { get }

    /// The request parameters, built from the service's properties; `nil` optionals disappear.
    /// Default: none.
    var parameters: Parameters { get }

    /// Where the parameters travel. Default: `.query` when the service gives a ``body``; otherwise the
    /// method's ``HTTPMethod/defaultParameterEncoding`` (query string for GET, HEAD, DELETE, OPTIONS; JSON
    /// body otherwise).
    var parameterEncoding: ParameterEncoding { get }

    /// The request body, when the service gives it whole rather than from its ``parameters``: an
    /// `Encodable` value as JSON (``RequestBody/json(_:encoder:)``, encoded with the client's
    /// ``WebServiceClient/Configuration/jsonEncoder`` unless the body names its own encoder) or bytes with
    /// their media type (``RequestBody/data(_:contentType:)``). The parameters then travel in the query
    /// string. Default: `nil`, the parameters make the body as ``parameterEncoding`` says.
    ///
    /// A request has one body: a body on a GET or HEAD, next to parameters encoded as a body, or next to
    /// ``files`` fails the call with ``WebServiceError/Service/invalidRequest(_:)`` before anything is sent.
    var body: RequestBody? { get }

    /// How dates, booleans and arrays are written. Default: ``ParameterFormatting/standard``.
    var parameterFormatting: ParameterFormatting { get }

    /// File parts of a `.multipart` body, after the parameters' text parts. Default: none.
    var files: [MultipartFile] { get }

    /// Makes the request conditional on the server's version of the resource: `If-Match` or
    /// `If-None-Match` with an entity tag from an earlier response's ``RawResponse/etag``. The server's
    /// refusals are service-level cases of their own: 412 is ``WebServiceError/Service/preconditionFailed``,
    /// 304 ``WebServiceError/Service/notModified``. Set after the client's headers, before
    /// ``configure(_:)``, which has the last word. Default: `nil`, unconditional.
    var condition: RequestCondition? { get }

    /// Adjusts the finished request (headers, cache policy, timeout) just before it is sent; what is set
    /// here wins over the client's defaults. Default: nothing.
    func configure(_ request: inout URLRequest)

    /// Maps the response's JSON to ``Response``: the only place that knows the API's response keys.
    /// Read with ``JSON``'s accessors; `required` ones throw service-level errors naming the key path.
    /// Default when `Response` is `Decodable`: decodes it with ``responseDateFormat``.
    func response(from json: JSON) throws -> Response

    /// Maps a whole response to ``Response``. Default: ``response(from:)`` on the body's JSON, throwing
    /// `.undecodableBody` when the body is empty or not JSON and `.wrongContentType` when its
    /// `Content-Type` is not JSON. Implement it for bodies that are not JSON or mappings that need headers
    /// (``RawResponse/requiredJSON`` then throws as the default does).
    func decodeResponse(_ reply: RawResponse) throws -> Response

    /// Spots a service-level error in a response that arrived whole, before any mapping. Default:
    /// ``RawResponse/commonServiceError`` (429, non-2xx statuses with the server's message, error payloads
    /// in a 2xx). A non-2xx response is an error even when this returns `nil`.
    func serviceError(in reply: RawResponse) -> WebServiceError.Service?

    /// The network-level case for a transport failure (no complete response arrived). Default:
    /// ``WebServiceError/Network/init(transportError:)``.
    func networkError(for failure: any Error) -> WebServiceError.Network

    /// How the default `Decodable` mapping reads dates. Default: ``DateFormat/iso8601``.
    var responseDateFormat: DateFormat { get }
}
