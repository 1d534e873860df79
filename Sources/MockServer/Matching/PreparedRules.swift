/// ``MatchRules`` (a cassette's merged with the engine's) in the form lookups use: sets and lower-cased names.
struct PreparedRules: Sendable, Hashable {
    let ignoredQuery: Set<String>
    let ignoredBodyFields: Set<String>
    /// Lower-cased header names to compare, sorted and unique.
    let headers: [String]
    /// Display spelling of each header in ``headers`` (the first spelling given), for reports.
    let headerDisplayNames: [String]

    init(_ rules: MatchRules, adding extra: MatchRules = MatchRules()) {
        ignoredQuery = Set(rules.ignoredQueryParameters + extra.ignoredQueryParameters)
        ignoredBodyFields = Set(rules.ignoredBodyFields + extra.ignoredBodyFields)
        var display: [String: String] = [:]
        for name in rules.headers + extra.headers where display[name.lowercased()] == nil {
            display[name.lowercased()] = name
        }
        headers = display.keys.sorted()
        headerDisplayNames = headers.map { display[$0]! }
    }
}
