import ServiceReplayShared

/// Applies a ``FaultPlan`` to live traffic: counts each rule's matches and decides, per request or per
/// accepted connection, which fault (if any) fires. Safe to call from any thread; the only lock it takes
/// guards the counts, and nothing is called while it is held.
final class FaultInjector: Sendable {
    /// The plan being applied.
    let plan: FaultPlan
    /// The seed every draw uses: the plan's, mixed with the server's test identity when it has one (see
    /// ``SeededDraw/seed(_:identity:)``).
    let drawSeed: UInt64
    private let counts: Lock<[Int]>
    /// Per rule: whether it is considered for requests at all (see ``init(plan:engine:)``).
    private let applies: [Bool]
    /// Per rule: the error template its `service-error` or error-event fault sends, looked up once.
    private let templates: [HTTPResponse?]

    /// Starts applying `plan` with every rule's count at zero, without error templates: every rule applies,
    /// and a `service-error` or error-event fault answers with a 500 saying the template is missing. For
    /// tests of the injector alone; a server uses ``init(plan:engine:identity:)``. `identity` as there.
    init(plan: FaultPlan, identity: String? = nil) {
        self.plan = plan
        drawSeed = SeededDraw.seed(plan.seed, identity: identity)
        counts = Lock(Array(repeating: 0, count: plan.rules.count))
        templates = Array(repeating: nil, count: plan.rules.count)
        applies = Array(repeating: true, count: plan.rules.count)
        hasAcceptRules = plan.rules.contains { $0.fault.actsOnAccept }
        hasOperationRules = plan.rules.contains { $0.operation != nil }
        hasWebSocketRules = plan.rules.contains { $0.fault.webSocketFault != nil }
    }

    /// Starts applying `plan`, looking up once the error template of each `service-error` and error-event rule
    /// with `template` (its name, the rule and the rule's index), which returns `nil` for a rule that never
    /// applies here or throws for one that cannot be used; ``init(plan:engine:identity:)``, in the engine,
    /// looks them up in the cassettes. `identity` as in ``init(plan:identity:)``.
    init(
        plan: FaultPlan, identity: String?,
        template: (_ name: String, _ rule: FaultRule, _ index: Int) throws(MockServerError) -> HTTPResponse?
    ) throws(MockServerError) {
        self.plan = plan
        drawSeed = SeededDraw.seed(plan.seed, identity: identity)
        counts = Lock(Array(repeating: 0, count: plan.rules.count))
        var templates: [HTTPResponse?] = []
        var applies: [Bool] = []
        for (index, rule) in plan.rules.enumerated() {
            switch rule.fault.kind {
            case .serviceError(let name), .errorEvent(let name, _):
                let found = try template(name, rule, index)
                templates.append(found)
                applies.append(found != nil)
            default:
                templates.append(nil)
                applies.append(true)
            }
        }
        self.templates = templates
        self.applies = applies
        hasAcceptRules = plan.rules.contains { $0.fault.actsOnAccept }
        hasOperationRules = plan.rules.contains { $0.operation != nil }
        hasWebSocketRules = plan.rules.contains { $0.fault.webSocketFault != nil }
    }

    /// The decision for a request parsed as `parts` (the method and path matching compares), or `nil` when no
    /// rule fires. Rules that act on accept (`refuse`) are not considered here, nor rules aimed at another API,
    /// nor WebSocket rules for a request that is no WebSocket upgrade; rules not considered do not count the request.
    func decision(for parts: RequestParts) -> FaultDecision? {
        // Read only when a rule asks: most requests are not GraphQL, and most plans name no operation.
        let operations = hasOperationRules ? GraphQLRequest.operationNames(of: parts.body) : []
        // Likewise: most plans hold no WebSocket rule.
        let isUpgrade = hasWebSocketRules && WebSocketHandshake.isUpgrade(method: parts.method, headers: parts.headers)
        return decide { index, rule in
            applies[index] && !rule.fault.actsOnAccept && (isUpgrade || rule.fault.webSocketFault == nil)
                && rule.considers(method: parts.method, path: parts.path, operations: operations)
        }
    }

    /// The decision for a newly accepted connection: only `refuse` rules are considered.
    func decisionOnAccept() -> FaultDecision? {
        decide { _, rule in rule.fault.actsOnAccept }
    }

    /// Whether any rule acts on accept, so a server can skip asking for every connection. Worked out once.
    let hasAcceptRules: Bool
    /// Whether any rule names a GraphQL operation, so that other plans never read a request's operation.
    private let hasOperationRules: Bool
    /// Whether any rule is a WebSocket fault, so that other plans never ask whether a request is an upgrade.
    private let hasWebSocketRules: Bool

    private func decide(_ considers: (Int, FaultRule) -> Bool) -> FaultDecision? {
        guard !plan.rules.isEmpty else { return nil }
        let seed = drawSeed
        let fired: (index: Int, count: Int)? = counts.withLock { counts in
            for (index, rule) in plan.rules.enumerated() where considers(index, rule) && !rule.trigger.isSpent(after: counts[index]) {
                counts[index] += 1
                let count = counts[index]
                let unit = SeededDraw.unit(seed: seed, rule: index, count: count, stream: .trigger)
                if rule.trigger.fires(count: count, unit: unit) { return (index, count) }
            }
            return nil
        }
        guard let fired else { return nil }
        let rule = plan.rules[fired.index]
        var delay: Duration?
        switch rule.fault.kind {
        case .latency(let distribution), .eventLatency(let distribution):
            delay = distribution.delay(
                unit: SeededDraw.unit(seed: seed, rule: fired.index, count: fired.count, stream: .latency),
                unit2: SeededDraw.unit(seed: seed, rule: fired.index, count: fired.count, stream: .latencySecond))
        default:
            break
        }
        return FaultDecision(
            fault: rule.fault, ruleIndex: fired.index, rule: rule, seed: plan.seed, drawSeed: seed, count: fired.count,
            delay: delay, template: templates[fired.index])
    }
}
