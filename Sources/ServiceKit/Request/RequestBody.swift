import Foundation

/// A request body that a service gives whole, instead of one made from its ``WebService/parameters``: an
/// `Encodable` value as JSON, or bytes with their media type. A service returns it from ``WebService/body``:
///
/// ```swift
/// struct CreateTaskService: WebService {
///     var task: NewTask                          // any Encodable & Sendable type
///     var endpoint: String { "/tasks" }
///     var method: HTTPMethod { .post }
///     var body: RequestBody? { .json(task) }
///     func response(from json: JSON) throws -> String { try json["id"].required.string }
/// }
/// ```
public struct RequestBody: Sendable {
    /// What the body holds until the client encodes it.
    enum Content: Sendable {
        case json(any Encodable & Sendable, encoder: JSONEncoder?)
        case data(Data, contentType: String)
    }

    let content: Content

    /// `value` as JSON, sent with `Content-Type: application/json`. `encoder` encodes it; when it is `nil` (the
    /// default), the client's ``WebServiceClient/Configuration/jsonEncoder`` does. A value the encoder refuses
    /// (a `Double.nan`, say) fails the call with ``WebServiceError/Service/invalidRequest(_:)``, naming where
    /// it sits, before anything is sent. Another media type of JSON (`application/merge-patch+json`) is set in
    /// ``WebService/configure(_:)``, which has the last word on headers.
    public static func json(_ value: some Encodable & Sendable, encoder: JSONEncoder? = nil) -> RequestBody {
        RequestBody(content: .json(value, encoder: encoder))
    }

    /// `data` byte for byte, sent with `Content-Type: contentType` (`text/csv`, `application/octet-stream`).
    /// Nothing is checked: the server is the judge of the bytes and their type.
    public static func data(_ data: Data, contentType: String) -> RequestBody {
        RequestBody(content: .data(data, contentType: contentType))
    }

    /// The bytes to send, JSON encoded with this body's own encoder or else `clientEncoder`.
    func encoded(clientEncoder: JSONEncoder) throws(WebServiceError) -> EncodedBody {
        switch content {
        case .data(let data, let contentType):
            return EncodedBody(contentType: contentType, data: data)
        case .json(let value, let encoder):
            do {
                return EncodedBody(contentType: "application/json", data: try (encoder ?? clientEncoder).encode(value))
            } catch {
                throw .service(.invalidRequest(Self.sentence(for: error)), underlyingError: error)
            }
        }
    }

    /// Why the encoder refused the value, in one sentence.
    private static func sentence(for error: any Error) -> String {
        if case EncodingError.invalidValue(let value, let context) = error {
            return "The body cannot be encoded as JSON: its value at \(JSONPath(codingPath: context.codingPath)) (\(value)) has no JSON form."
        }
        return "The body cannot be encoded as JSON: \(error)."
    }
}
