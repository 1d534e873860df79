import Foundation

extension WebServiceError {
    /// Service-level failures: the server answered, but not with what the service asked for; or the
    /// service described a request that cannot be sent (``invalidRequest(_:)``).
    public enum Service: Hashable, Sendable {
        /// The server answered with a non-2xx status; `message` is the server's own explanation when its
        /// body carried one (`message`, `error_message`, `error_description` or `error`).
        case httpStatus(Int, message: String?)
        /// The server refused because of rate limiting; `retryAfter` is how many seconds it asked the
        /// caller to wait, when it said.
        case rateLimited(retryAfter: TimeInterval?)
        /// A 2xx response whose body is an error payload (`{"error": ...}`,
        /// `{"error_id", "error_name", "error_message"}`); `code` is the machine-readable name, `message`
        /// the human one, each when present. Also a WebSocket closed with a code the API defines as an error
        /// (``WebSocketCloseFrame/applicationError``): the code's number and the close's reason.
        case errorPayload(code: String?, message: String?)
        /// The body was empty or could not be parsed as the service's format.
        case undecodableBody
        /// The body had a content type the service does not read (for example `text/html` instead of JSON).
        case wrongContentType(String)
        /// A field the service requires is absent; the associated value is its key path, such as
        /// `$.items[3].owner.display_name` (see ``JSONPath``).
        case missingField(String)
        /// A field is present but cannot be read as the type the service requires; the associated value
        /// is its key path.
        case invalidField(String)
        /// The service describes a request that cannot be sent, so nothing was sent: a GET or HEAD with a
        /// body, a ``WebService/body`` next to parameters encoded as a body, files outside a `.multipart` body,
        /// a nested object (``ParameterValue/object(_:)``) outside a `.json` body, or a body value its JSON
        /// encoder refuses. The associated value is one sentence saying which, for the developer; the request
        /// is never retried.
        case invalidRequest(String)
        /// The server has nothing newer than the version the request named in `If-None-Match`
        /// (``RequestCondition/ifNoneMatch(_:)``): status 304, with no body. Keep the copy already loaded.
        case notModified
        /// The server refused because a condition of the request does not hold (status 412): after
        /// `If-Match` (``RequestCondition/ifMatch(_:)``), the resource changed since its `ETag` was read;
        /// after `If-None-Match: *`, it exists already. Reload it, then decide again.
        case preconditionFailed
        /// A GraphQL server answered with errors (``GraphQLService``): their messages, paths and codes, and the
        /// partial data it sent beside them.
        case graphQL(GraphQLErrors)

        /// The stable `NSError` code of the case in ``WebServiceError/serviceErrorDomain``.
        public var code: Int {
            switch self {
            case .httpStatus: 1
            case .rateLimited: 2
            case .errorPayload: 3
            case .undecodableBody: 4
            case .wrongContentType: 5
            case .missingField: 6
            case .invalidField: 7
            case .invalidRequest: 8
            case .notModified: 9
            case .preconditionFailed: 10
            case .graphQL: 11
            }
        }
    }
}
