/// The cassette fields HAR has no place for, kept in the log's `_servicereplay` object (HAR allows
/// extension fields whose names start with `_`). ``Cassette/har()`` writes it so that
/// ``Cassette/importing(_:options:)`` restores the cassette exactly; archives from browsers and proxies lack
/// it and are imported with defaults.
package struct HARCassetteMetadata: Codable, Sendable, Hashable {
    /// The cassette's name.
    var name: String
    /// The cassette's upstream, which may carry a path prefix (`https://api.nice.example/v1`) that entry
    /// URLs alone cannot reveal.
    var upstream: String?
    /// `recorded` or `hand-written`.
    package var origin: String
    /// When the cassette was recorded, ISO 8601 in UTC.
    var recordedAt: String?
    /// The cassette's match rules, when not the defaults.
    var matching: HARMatchRules?
    /// The cassette's service-level error templates, each as a HAR response.
    var errorTemplates: [String: HARResponse]?

    /// Creates the metadata record.
    init(
        name: String, upstream: String?, origin: String, recordedAt: String?, matching: HARMatchRules?,
        errorTemplates: [String: HARResponse]?
    ) {
        self.name = name
        self.upstream = upstream
        self.origin = origin
        self.recordedAt = recordedAt
        self.matching = matching
        self.errorTemplates = errorTemplates
    }
}

/// A cassette's `matching` block inside ``HARCassetteMetadata``, spelled as in the cassette file.
package struct HARMatchRules: Codable, Sendable, Hashable {
    /// Query parameters not compared.
    var ignoreQuery: [String]?
    /// JSON keys, form fields and multipart parts not compared.
    var ignoreBodyFields: [String]?
    /// Request headers that must match too.
    var headers: [String]?
    /// `repeat`, `cycle` or `fail`.
    var afterLast: String?
    /// JSON paths not compared.
    var ignoreBodyPaths: [String]?
    /// XML elements whose content is not compared.
    var ignoreXMLElements: [String]?
    /// `METHOD /glob` of requests whose body is not compared.
    var ignoreBody: [String]?

    /// The record of `rules`, empty lists left out.
    init(_ rules: MatchRules) {
        func listed(_ list: [String]) -> [String]? { list.isEmpty ? nil : list }
        ignoreQuery = listed(rules.ignoredQueryParameters)
        ignoreBodyFields = listed(rules.ignoredBodyFields)
        headers = listed(rules.headers)
        afterLast = rules.afterLast?.rawValue
        ignoreBodyPaths = listed(rules.ignoredBodyPaths)
        ignoreXMLElements = listed(rules.ignoredXMLElements)
        ignoreBody = listed(rules.ignoredBodies)
    }
}
