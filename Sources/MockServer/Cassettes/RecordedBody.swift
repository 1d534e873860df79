import Foundation

/// A message body as a cassette stores it: inline JSON, UTF-8 text, or base64 bytes.
///
/// In the file: `{"json": <value>}`, `{"text": "..."}` or `{"base64": "..."}`; an empty body is omitted.
public enum RecordedBody: Sendable, Hashable {
    /// No body.
    case empty
    /// A JSON document, stored inline; replayed compactly with sorted keys.
    case json(CassetteJSON)
    /// Text, replayed as its UTF-8 bytes.
    case text(String)
    /// Any other bytes, stored as base64 (`"base64"` in the file).
    case binary(Data)

    /// Chooses how to store `data` from its `Content-Type`, so that nothing is lost:
    /// JSON media types (`application/json`, `text/json`, `*/*+json`) become ``json(_:)`` when the bytes
    /// parse as one JSON document, textual media types (see ``isTextual(contentType:)``) and unparseable JSON
    /// become ``text(_:)`` when the bytes are valid UTF-8, and everything else becomes ``binary(_:)``.
    /// Empty data is ``empty``.
    public init(_ data: Data, contentType: String?) {
        guard !data.isEmpty else {
            self = .empty
            return
        }
        let mediaType = MediaType(contentType)
        if mediaType.isJSON, let value = try? CassetteJSON(parsing: data) {
            self = .json(value)
        } else if mediaType.isJSON || mediaType.isTextual, let text = String(validating: data, as: UTF8.self) {
            self = .text(text)
        } else {
            self = .binary(data)
        }
    }

    /// The bytes to send: JSON serialized compactly (sorted keys, slashes unescaped), text as UTF-8.
    public var data: Data {
        switch self {
        case .empty: Data()
        case .json(let value): value.serialized()
        case .text(let text): Data(text.utf8)
        case .binary(let data): data
        }
    }

    /// Whether there is no body.
    public var isEmpty: Bool {
        switch self {
        case .empty: true
        case .json: false
        case .text(let text): text.isEmpty
        case .binary(let data): data.isEmpty
        }
    }

    /// Whether a `Content-Type` names textual content: `text/*`, XML, JavaScript, YAML, GraphQL, CSV and
    /// form-urlencoded bodies, and `*/*+xml` or `*/*+yaml` types. JSON types count as textual too.
    public static func isTextual(contentType: String?) -> Bool {
        let mediaType = MediaType(contentType)
        return mediaType.isJSON || mediaType.isTextual
    }
}
