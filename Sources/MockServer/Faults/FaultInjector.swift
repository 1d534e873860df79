import Locking

/// Applies a ``FaultPlan`` to live traffic: counts each rule's matches and decides, per request or per
/// accepted connection, which fault (if any) fires. Safe to call from any thread.
final class FaultInjector: Sendable {
    /// The plan being applied.
    let plan: FaultPlan
    private let counts: Lock<[Int]>

    /// Starts applying `plan` with every rule's count at zero.
    init(plan: FaultPlan) {
        self.plan = plan
        self.counts = Lock(Array(repeating: 0, count: plan.rules.count))
    }

    /// The decision for a request with `method` and `path` (no query), or `nil` when no rule fires.
    /// Rules that act on accept (`refuse`) are not considered here, nor rules whose fault `isApplicable`
    /// rejects (a server skips `service-error` rules whose template its cassettes do not hold); rules
    /// not considered do not count the request.
    func decision(method: String, path: String, isApplicable: (Fault) -> Bool = { _ in true }) -> FaultDecision? {
        decide { rule in !rule.fault.actsOnAccept && rule.considers(method: method, path: path) && isApplicable(rule.fault) }
    }

    /// The decision for a newly accepted connection: only `refuse` rules are considered.
    func decisionOnAccept() -> FaultDecision? {
        decide { rule in rule.fault.actsOnAccept }
    }

    /// Whether any rule acts on accept, so a server can skip asking for every connection.
    var hasAcceptRules: Bool { plan.rules.contains { $0.fault.actsOnAccept } }

    /// Sets every rule's count back to zero, as for a fresh plan.
    func resetCounts() {
        counts.withLock { counts in
            for index in counts.indices { counts[index] = 0 }
        }
    }

    private func decide(_ considers: (FaultRule) -> Bool) -> FaultDecision? {
        guard !plan.rules.isEmpty else { return nil }
        let seed = plan.seed
        let fired: (index: Int, count: Int)? = counts.withLock { counts in
            for (index, rule) in plan.rules.enumerated() where considers(rule) && !rule.trigger.isSpent(after: counts[index]) {
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
        return FaultDecision(fault: rule.fault, ruleIndex: fired.index, rule: rule, seed: seed, count: fired.count, delay: delay)
    }
}
