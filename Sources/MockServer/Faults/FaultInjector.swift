import ServiceReplayLocking

/// Applies a ``FaultPlan`` to live traffic: counts each rule's matches and decides, per request or per
/// accepted connection, which fault (if any) fires. Safe to call from any thread; the only lock it takes
/// guards the counts, and nothing is called while it is held.
final class FaultInjector: Sendable {
    /// The plan being applied.
    let plan: FaultPlan
    private let counts: Lock<[Int]>
    /// Per rule: whether it is considered for requests at all (see ``init(plan:templates:)``).
    private let applies: [Bool]
    /// Per rule: the error template its `service-error` or error-event fault sends, looked up once.
    private let templates: [HTTPResponse?]

    /// Starts applying `plan` with every rule's count at zero. `templates` looks up the error templates of
    /// a server's cassettes, once per rule, here: a server skips `service-error` and error-event rules whose
    /// template no cassette holds. Without it every rule applies, and such a fault answers with a 500 saying
    /// the template is missing.
    init(plan: FaultPlan, templates: ((String) -> HTTPResponse?)? = nil) {
        self.plan = plan
        self.counts = Lock(Array(repeating: 0, count: plan.rules.count))
        let resolved: [HTTPResponse?] = plan.rules.map { rule in
            switch rule.fault.kind {
            case .serviceError(let name), .errorEvent(let name, _): templates?(name)
            default: nil
            }
        }
        self.templates = resolved
        self.applies = zip(plan.rules, resolved).map { rule, template in
            switch rule.fault.kind {
            case .serviceError, .errorEvent: templates == nil || template != nil
            default: true
            }
        }
    }

    /// The decision for a request with `method` and `path` (no query), or `nil` when no rule fires.
    /// Rules that act on accept (`refuse`) are not considered here, nor rules skipped for a missing
    /// template; rules not considered do not count the request.
    func decision(method: String, path: String) -> FaultDecision? {
        decide { index, rule in applies[index] && !rule.fault.actsOnAccept && rule.considers(method: method, path: path) }
    }

    /// The decision for a newly accepted connection: only `refuse` rules are considered.
    func decisionOnAccept() -> FaultDecision? {
        decide { _, rule in rule.fault.actsOnAccept }
    }

    /// Whether any rule acts on accept, so a server can skip asking for every connection.
    var hasAcceptRules: Bool { plan.rules.contains { $0.fault.actsOnAccept } }

    /// Sets every rule's count back to zero, as for a fresh plan.
    func resetCounts() {
        counts.withLock { counts in
            for index in counts.indices { counts[index] = 0 }
        }
    }

    private func decide(_ considers: (Int, FaultRule) -> Bool) -> FaultDecision? {
        guard !plan.rules.isEmpty else { return nil }
        let seed = plan.seed
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
        return FaultDecision(fault: rule.fault, ruleIndex: fired.index, rule: rule, seed: seed, count: fired.count, delay: delay,
                             template: templates[fired.index])
    }
}
