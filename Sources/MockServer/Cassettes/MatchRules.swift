/// How requests are matched against a cassette, from its `matching` block:
///
/// ```json
/// "matching": {"ignoreQuery": ["_"], "ignoreBodyFields": ["timestamp"], "headers": ["Accept"], "afterLast": "repeat",
///              "ignoreBodyPaths": ["$.idempotencyKey"], "ignoreXMLElements": ["Latest"], "ignoreBody": ["PUT /uploads/*"]}
/// ```
///
/// Method, path, query and body are always compared, and `Range`, `x-ms-range`, `If-Range`, `If-None-Match` and
/// `If-Modified-Since` whenever the recorded request carried them (a recording that carried the request's
/// `Range` or conditional headers is preferred to one that did not); these rules narrow or widen that. Among
/// recordings that match, those whose other headers agree most with the request's answer first (volatile ones,
/// such as dates, request IDs and signatures, never count).
public struct MatchRules: Sendable, Hashable {
    /// Query parameters never compared, by exact (case-sensitive) name (`ignoreQuery`).
    public var ignoredQueryParameters: [String]
    /// JSON object keys (at any depth), form fields and multipart part names never compared (`ignoreBodyFields`).
    public var ignoredBodyFields: [String]
    /// Request headers that must also match, by case-insensitive name (`headers`). None by default.
    public var headers: [String]
    /// What identical requests get after their last recorded response (`afterLast`); `nil` means
    /// ``AfterLastPolicy/repeat``.
    public var afterLast: AfterLastPolicy?
    /// JSON body values never compared, by path from the document's root (`ignoreBodyPaths`): `$.idempotencyKey`,
    /// `$.data.requestId`, `$.items[*].clientId`, `$["odd key"]`. A value is left out wherever the path leads in
    /// either body; a path that leads nowhere leaves the body as it is.
    public var ignoredBodyPaths: [String]
    /// XML elements whose content is never compared, by local name, any namespace prefix (`ignoreXMLElements`):
    /// `Latest` leaves out the block IDs of an Azure block list. Applies to bodies whose first character is `<`.
    public var ignoredXMLElements: [String]
    /// Requests whose whole body is never compared, each `METHOD /path-glob` or `/path-glob` for any method
    /// (`ignoreBody`): `PUT /container/*`. The glob is a fault rule's (`*` any run of characters, `?` one).
    public var ignoredBodies: [String]

    /// Creates rules; every list defaults to empty and `afterLast` to unset (repeat).
    public init(
        ignoredQueryParameters: [String] = [],
        ignoredBodyFields: [String] = [],
        headers: [String] = [],
        afterLast: AfterLastPolicy? = nil,
        ignoredBodyPaths: [String] = [],
        ignoredXMLElements: [String] = [],
        ignoredBodies: [String] = []
    ) {
        self.ignoredQueryParameters = ignoredQueryParameters
        self.ignoredBodyFields = ignoredBodyFields
        self.headers = headers
        self.afterLast = afterLast
        self.ignoredBodyPaths = ignoredBodyPaths
        self.ignoredXMLElements = ignoredXMLElements
        self.ignoredBodies = ignoredBodies
    }

    /// Whether nothing is set, so the block can be left out of the file.
    public var isDefault: Bool {
        ignoredQueryParameters.isEmpty && ignoredBodyFields.isEmpty && headers.isEmpty && afterLast == nil
            && ignoredBodyPaths.isEmpty && ignoredXMLElements.isEmpty && ignoredBodies.isEmpty
    }
}

/// What a request gets once every recorded response for it has been replayed.
public enum AfterLastPolicy: String, Sendable, Hashable, CaseIterable {
    /// Keep replaying the last recorded response (the default).
    case `repeat`
    /// Start over from the first recorded response.
    case cycle
    /// Answer as unmatched, saying the match was used up.
    case fail
}
