/// Per-test adjustments to how a ``ReplayEngine`` matches and sequences, on top of each cassette's own
/// `matching` block.
package struct ReplayOptions: Sendable {
    /// Rules added to every cassette's: the ignore lists and header list are merged with the cassette's;
    /// a set `afterLast` replaces every cassette's policy.
    var rules: MatchRules
    /// A custom condition replacing query, header and body comparison within method and path; `nil` (the
    /// default) uses the rules.
    var matcher: RequestMatcher?

    /// Creates options; by default the cassettes' own rules apply unchanged.
    init(rules: MatchRules = MatchRules(), matcher: RequestMatcher? = nil) {
        self.rules = rules
        self.matcher = matcher
    }

    /// Options that only change the after-last policy of every cassette.
    static func afterLast(_ policy: AfterLastPolicy) -> ReplayOptions {
        ReplayOptions(rules: MatchRules(afterLast: policy))
    }
}
