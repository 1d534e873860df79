import ServiceReplayShared

/// ``MatchRules`` (a cassette's merged with the engine's) in the form lookups use: sets, lower-cased names,
/// parsed paths and globs.
struct PreparedRules: Sendable, Hashable {
    let ignoredQuery: Set<String>
    let ignoredBodyFields: Set<String>
    /// Lower-cased header names to compare, sorted and unique.
    let headers: [String]
    /// Display spelling of each header in ``headers`` (the first spelling given), for reports.
    let headerDisplayNames: [String]
    /// JSON values left out of bodies, by path.
    let ignoredBodyPaths: [JSONPath]
    /// XML elements whose content is left out of bodies, by local name.
    let ignoredXMLElements: [String]
    /// Requests whose body is not compared at all.
    let wholeBodies: [WholeBody]

    /// An `ignoreBody` entry ready to test requests against.
    struct WholeBody: Sendable, Hashable {
        let method: String?
        let glob: PathGlob

        func covers(method: String, path: String) -> Bool {
            (self.method == nil || self.method == method) && glob.matches(path)
        }
    }

    init(_ rules: MatchRules, adding extra: MatchRules = MatchRules()) {
        ignoredQuery = Set(rules.ignoredQueryParameters + extra.ignoredQueryParameters)
        ignoredBodyFields = Set(rules.ignoredBodyFields + extra.ignoredBodyFields)
        var display: [String: String] = [:]
        for name in rules.headers + extra.headers where display[name.lowercased()] == nil {
            display[name.lowercased()] = name
        }
        headers = display.keys.sorted()
        headerDisplayNames = headers.map { display[$0]! }
        ignoredBodyPaths = rules.parsedBodyPaths + extra.parsedBodyPaths
        ignoredXMLElements = Array(Set(rules.ignoredXMLElements + extra.ignoredXMLElements)).sorted()
        wholeBodies = (rules.parsedWholeBodyRules + extra.parsedWholeBodyRules).map {
            WholeBody(method: $0.method, glob: PathGlob($0.glob))
        }
    }

    /// Whether the body of a request to `method` and `path` is compared at all.
    func comparesBody(method: String, path: String) -> Bool {
        wholeBodies.isEmpty || !wholeBodies.contains { $0.covers(method: method, path: path) }
    }
}
