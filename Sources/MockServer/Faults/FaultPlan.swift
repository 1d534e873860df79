import ServiceReplayShared
/// An ordered list of fault rules and the seed for their random choices.
///
/// For each request the rules are tried in order and the first whose filters pass and whose trigger
/// fires wins; at most one fault applies to a request. Counting and random draws are per rule, so the
/// same seed and the same sequence of requests give the same decisions on every run.
public struct FaultPlan: Sendable, Hashable, CustomStringConvertible {
    /// The seed used when a plan does not give one: 1, so that runs are reproducible by default.
    public static let defaultSeed: UInt64 = 1

    /// The seed of every random choice (probability triggers, latency draws, garbage bytes).
    public var seed: UInt64
    /// The rules, tried in order.
    public private(set) var rules: [FaultRule]

    /// Creates a plan. Throws ``MockServerError`` if a `refuse` rule has a path, method or operation filter (it
    /// acts before any request is read), a rule's operation or `graphql-error` code is not a GraphQL name, or a
    /// `ws-close` code is not one a server may send.
    public init(seed: UInt64 = FaultPlan.defaultSeed, rules: [FaultRule]) throws(MockServerError) {
        for (index, rule) in rules.enumerated() {
            if rule.fault.actsOnAccept && (rule.path != nil || rule.method != nil || rule.operation != nil) {
                throw MockServerError(
                    .invalidFaultPlan,
                    "rule \(index + 1) ('\(rule)'): refuse acts before a request is read, so it cannot be filtered by path, method or operation")
            }
            if case .graphQLError(let code) = rule.fault.kind, !GraphQLDocument.isName(code) {
                throw MockServerError(
                    .invalidFaultPlan, "rule \(index + 1) ('\(rule)'): graphql-error code '\(code)' is not made of letters, digits and _, such as FORBIDDEN")
            }
            if let fault = rule.fault.webSocketFault, !fault.isSendable, case .close(let code) = fault.action {
                throw MockServerError(.invalidFaultPlan, "rule \(index + 1) ('\(rule)'): " + WebSocketFault.unsendableCode(String(code)))
            }
            if let operation = rule.operation, !GraphQLDocument.isName(operation) {
                throw MockServerError(
                    .invalidFaultPlan,
                    "rule \(index + 1) ('\(rule)'): operation '\(operation)' is not a GraphQL operation name (letters, digits and _, not starting with a digit)"
                )
            }
        }
        self.seed = seed
        self.rules = rules
    }

    /// A plan with no rules: nothing is injected.
    public static let none = FaultPlan(uncheckedSeed: defaultSeed, rules: [])

    private init(uncheckedSeed: UInt64, rules: [FaultRule]) {
        self.seed = uncheckedSeed
        self.rules = rules
    }

    /// Parses specs in the CLI spelling separated by `;` (blank specs are skipped), such as
    /// `status=503,when=first:2; latency=100..300ms,when=p:0.5,path=/users*`.
    /// Throws ``MockServerError`` naming the first bad spec and its bad part.
    public static func parse(specs: String, seed: UInt64 = FaultPlan.defaultSeed) throws(MockServerError) -> FaultPlan {
        var rules: [FaultRule] = []
        for scalars in specs.unicodeScalars.split(separator: ";") {
            let spec = String(Substring(scalars))
            if !spec.trimmingWhitespace().isEmpty { rules.append(try FaultRule.parse(spec: spec)) }
        }
        return try FaultPlan(seed: seed, rules: rules)
    }

    /// The rules in the CLI spelling, joined by `; `, preceded by the seed: `seed=7: reset; status=503`.
    public var description: String {
        "seed=\(seed): " + (rules.isEmpty ? "no faults" : rules.map(\.description).joined(separator: "; "))
    }
}
