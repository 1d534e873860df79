import Foundation

/// A message body as a cassette stores it: inline JSON, UTF-8 text, base64 bytes, or a stream of timed
/// parts. Whatever the form, ``data`` gives back the very bytes that were recorded.
///
/// In the file: `{"json": <value>}` (with `"layout"` and `"finalNewline"` when the body was not compact),
/// `{"text": "..."}`, `{"base64": "..."}` or `{"stream": [...]}` (see the article "Cassettes and HAR"); an empty
/// body is omitted. Build one with ``json(_:)``, ``text(_:)``, ``binary(_:)``, ``empty``, or from bytes with
/// ``init(_:contentType:)``.
public struct RecordedBody: Sendable, Hashable {
    /// The forms a cassette stores a body in.
    package enum Form: Sendable, Hashable {
        /// No body.
        case empty
        /// A JSON document stored inline, its members in the body's own order and its numbers as written,
        /// replayed in `layout`.
        case json(CassetteJSON, layout: JSONLayout)
        /// Text, replayed as its UTF-8 bytes.
        case text(String)
        /// Any other bytes, stored as base64 (`"base64"` in the file).
        case binary(Data)
        /// A streamed body: events or chunks, each with its time offset, replayed with that timing.
        case stream(RecordedStream)
    }

    /// The form this body is stored in.
    package var form: Form

    /// A body stored in `form`.
    init(_ form: Form) {
        self.form = form
    }

    /// No body.
    public static let empty = RecordedBody(.empty)

    /// A JSON document stored inline and replayed compactly (no whitespace), its members in the order given:
    /// `.json(["login": "octocat"])`. As a request body, it matches any JSON body with the same value.
    public static func json(_ value: CassetteJSON) -> RecordedBody { RecordedBody(.json(value, layout: .compact)) }

    /// A JSON document stored inline, replayed in `layout`.
    static func json(_ value: CassetteJSON, layout: JSONLayout) -> RecordedBody { RecordedBody(.json(value, layout: layout)) }

    /// Text, replayed as its UTF-8 bytes.
    public static func text(_ text: String) -> RecordedBody { RecordedBody(.text(text)) }

    /// Any bytes, stored as base64 and replayed as they are.
    public static func binary(_ data: Data) -> RecordedBody { RecordedBody(.binary(data)) }

    /// A streamed body, replayed part by part with its recorded timing.
    package static func stream(_ stream: RecordedStream) -> RecordedBody { RecordedBody(.stream(stream)) }

    /// Chooses how to store `data` from its `Content-Type` so that ``data`` gives back exactly these bytes:
    /// under a JSON media type (`application/json`, `text/json`, `*/*+json`) a document is stored as
    /// inline JSON only when rendering it back in one of the layouts a cassette names gives the same bytes
    /// (so key order, number literals, string escapes and whitespace all match); otherwise, and for textual
    /// media types (see ``isTextual(contentType:)``), valid UTF-8 becomes ``text(_:)``; everything else
    /// becomes ``binary(_:)``. Empty data is ``empty``.
    public init(_ data: Data, contentType: String?) {
        guard !data.isEmpty else {
            self.init(.empty)
            return
        }
        let mediaType = MediaType(contentType)
        if mediaType.isJSON, let (value, layout) = Self.inlineJSON(data) {
            self.init(.json(value, layout: layout))
        } else if mediaType.isJSON || mediaType.isTextual, let text = String(validUTF8: data) {
            self.init(.text(text))
        } else {
            self.init(.binary(data))
        }
    }

    /// The parsed document and the layout that renders it back to exactly `data`, or `nil` when `data` is
    /// not JSON or no layout reproduces it.
    static func inlineJSON(_ data: Data) -> (CassetteJSON, JSONLayout)? {
        guard let value = try? CassetteJSON(parsing: data), let layout = JSONLayout.reproducing(data, from: value) else { return nil }
        return (value, layout)
    }

    /// The bytes to send: JSON rendered in its layout, text as UTF-8, a stream's parts concatenated.
    public var data: Data {
        switch form {
        case .empty: Data()
        case .json(let value, let layout): Data(layout.render(value))
        case .text(let text): Data(text.utf8)
        case .binary(let data): data
        case .stream(let stream): stream.data
        }
    }

    /// Whether there is no body.
    public var isEmpty: Bool {
        switch form {
        case .empty: true
        case .json: false
        case .text(let text): text.isEmpty
        case .binary(let data): data.isEmpty
        case .stream(let stream): stream.parts.isEmpty
        }
    }

    /// Whether a `Content-Type` names textual content: `text/*`, XML, JavaScript, YAML, GraphQL, CSV and
    /// form-urlencoded bodies, and `*/*+xml` or `*/*+yaml` types. JSON types count as textual too.
    public static func isTextual(contentType: String?) -> Bool {
        let mediaType = MediaType(contentType)
        return mediaType.isJSON || mediaType.isTextual
    }
}
