import Foundation

/// A recording of one API's exchanges: the file format of `Recordings/<api>/<name>.json`.
///
/// A cassette states its format and version, where it came from, how requests are matched against it and
/// an ordered list of interactions. Load one with ``load(from:)``, a folder with ``loadAll(from:)``; write
/// one with ``save(to:overwrite:)``, which is atomic and never replaces a file unless asked.
///
/// The file is pretty-printed JSON with sorted keys (what `JSONEncoder` writes with `.prettyPrinted`,
/// `.sortedKeys` and `.withoutEscapingSlashes`; inline JSON bodies keep their own key order), so a
/// re-recording diffs only where exchanges changed. An
/// example, with short arrays kept on one line here for brevity:
///
/// ```json
/// {
///   "format" : "servicereplay-cassette",
///   "interactions" : [
///     {
///       "durationMs" : 87,
///       "recordedAt" : "2026-11-21T10:00:00Z",
///       "request" : {
///         "headers" : [["Accept", "application/vnd.github+json"]],
///         "method" : "GET",
///         "target" : "/users?since=0&per_page=2"
///       },
///       "response" : {
///         "body" : {"json" : [{"id" : 1, "login" : "mojombo"}]},
///         "headers" : [["Content-Type", "application/json; charset=utf-8"]],
///         "status" : 200
///       }
///     }
///   ],
///   "matching" : {"afterLast" : "repeat", "headers" : ["Accept"], "ignoreBodyFields" : ["timestamp"], "ignoreQuery" : ["_"]},
///   "name" : "github-users",
///   "origin" : "recorded",
///   "recordedAt" : "2026-11-21T10:00:00Z",
///   "upstream" : "https://api.github.com",
///   "version" : 3
/// }
/// ```
///
/// - `format` and `version` are required; a newer version is refused with a sentence saying so.
/// - `origin` is `recorded` or `hand-written`; `note` is free text; `errorTemplates` names service-level
///   error responses (status, headers, body) for fault injection.
/// - Headers are `[name, value]` pairs, replayed in this order with repeats kept. A body is exactly one of
///   `{"json": value}` (optionally with `"layout"`, such as `"indent-2"`, and `"finalNewline"`),
///   `{"text": "..."}`, `{"base64": "..."}` or `{"stream": [...]}`, and is left out when empty; see ``RecordedBody``. Whichever
///   form, it replays as the very bytes recorded.
/// - Instead of `response`, an interaction may hold `"failure": {"kind": "refused" | "reset" | "timeout",
///   "message": "..."}`, a transport failure that replays as the same failure.
/// - Secrets are replaced by ``redactionPlaceholder``, which matches any value on replay.
/// - Unknown fields are refused, so a misspelt one never silently does nothing.
public struct Cassette: Sendable, Hashable {
    /// The value of the `format` field every cassette carries.
    public static let format = "servicereplay-cassette"
    /// The newest format version this code reads and the version it writes.
    ///
    /// Version 3 adds WebSocket conversations (`"webSocket"` in place of `"response"`, see
    /// `RecordedWebSocket`). Version 2 stores a JSON body's layout (`"layout"`, `"finalNewline"`) so that it
    /// replays byte for byte, in its own key order. Older files load as they are: version 1's inline bodies
    /// replay compactly, in the key order of the file (sorted, in every file the recorder wrote).
    public static let currentVersion = 3

    /// Whether the interactions were captured from a real upstream or written by a person.
    package enum Origin: String, Sendable, Hashable, CaseIterable {
        /// Captured by `recorder capture` (or the record mode) from a real upstream.
        case recorded
        /// Written by hand, for example from an API's documentation (`"hand-written"` in the file).
        case handWritten = "hand-written"
    }

    /// A short name used in journals and unmatched-request reports, such as `github-users`.
    /// Defaults to the file name without `.json` when the file has none.
    public var name: String
    /// The base URL the interactions were recorded from, such as `https://api.github.com`; `nil` when unknown.
    public var upstream: String?
    /// Whether this cassette was recorded or hand-written; `recorded` when the file does not say.
    package var origin: Origin
    /// Free text for readers, such as where a hand-written cassette's payloads come from.
    public var note: String?
    /// When the cassette was recorded (UTC); `nil` when unknown.
    public var recordedAt: Date?
    /// How requests are matched against this cassette, and what happens after the last match.
    public var matching: MatchRules
    /// Named service-level error responses for fault injection (`service-error=NAME`), such as `rate_limit`.
    public var errorTemplates: [String: RecordedResponse]
    /// The recorded exchanges, in recording order.
    public var interactions: [Interaction]
    /// The format version of the file this cassette was loaded from; ``currentVersion`` for a cassette made
    /// in memory. Saving always writes ``currentVersion``.
    public internal(set) var formatVersion: Int = Cassette.currentVersion

    /// Creates a cassette in memory, marked as recorded. Everything but the name defaults to empty.
    public init(
        name: String,
        upstream: String? = nil,
        note: String? = nil,
        recordedAt: Date? = nil,
        matching: MatchRules = MatchRules(),
        errorTemplates: [String: RecordedResponse] = [:],
        interactions: [Interaction] = []
    ) {
        self.init(
            name: name, upstream: upstream, origin: .recorded, note: note, recordedAt: recordedAt, matching: matching,
            errorTemplates: errorTemplates, interactions: interactions)
    }

    /// Creates a cassette in memory of the given origin.
    init(
        name: String,
        upstream: String? = nil,
        origin: Origin,
        note: String? = nil,
        recordedAt: Date? = nil,
        matching: MatchRules = MatchRules(),
        errorTemplates: [String: RecordedResponse] = [:],
        interactions: [Interaction] = []
    ) {
        self.name = name
        self.upstream = upstream
        self.origin = origin
        self.note = note
        self.recordedAt = recordedAt
        self.matching = matching
        self.errorTemplates = errorTemplates
        self.interactions = interactions
    }
}

extension Cassette {
    /// The text that replaces a secret at record time. In a recorded request it matches any value in the same
    /// place (query or form field, header, JSON value, multipart part), so redacted cassettes still replay;
    /// inside a header value, as in a redacted `Cookie: session=<redacted>; theme=<redacted>`, it matches any
    /// run of characters.
    public static let redactionPlaceholder = "<redacted>"

    /// ``redactionPlaceholder`` as written inside a URL (a request's query, a `Location`, a URL in a body or a
    /// stream event): `%3Credacted%3E`, the placeholder percent-encoded. `<` and `>` are not legal in a URL, and
    /// a client that follows or parses a replayed URL holding them fails where the live URL works. Query values
    /// are compared decoded, so it matches any value just as the placeholder does. Inside a URL carried
    /// percent-encoded in another URL's query it is encoded once more (`%253Credacted%253E`).
    public static let urlRedactionPlaceholder = "%3Credacted%3E"

    /// Whether `text` holds the placeholder, as written or as written inside a URL (any case of hex digits).
    static func holdsRedactionPlaceholder(_ text: String) -> Bool {
        text.contains(redactionPlaceholder) || text.range(of: urlRedactionPlaceholder, options: .caseInsensitive) != nil
    }
}
