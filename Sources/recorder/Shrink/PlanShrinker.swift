import Foundation
import MockServer

/// Turns a failing run under a probabilistic fault plan into the smallest deterministic plan that still fails:
/// every fault that fired becomes an `nth:` rule aimed at its request's method and path, then rules are taken
/// out one at a time, each removal kept when the run still fails, until none can go. Bounded in runs.
struct PlanShrinker {
    /// One run of the test: the environment to add and the run's number from 1; whether it failed, with the
    /// decisions its servers logged.
    typealias Run = (_ environment: [String: String], _ number: Int) async throws -> (failed: Bool, decisions: [FaultLogLine])

    /// The most runs in all, the first included.
    let maxRuns: Int
    let run: Run
    /// Told of each run: its number, the rules tried and whether it failed.
    var progress: (Int, Int, Bool) -> Void = { _, _, _ in }

    /// What came of a reduction.
    struct Reduction: Equatable {
        /// The minimal plan's rules, in the CLI spelling, in plan order.
        let rules: [String]
        /// How many faults fired in the first run.
        let fired: Int
        let runs: Int
        /// Whether the run budget ran out before no rule could go.
        let budgetSpent: Bool

        /// The plan, as `MOCKSERVER_FAULTS` takes it.
        var plan: String { rules.joined(separator: "; ") }
    }

    /// Reduces `plan` (specs or a plan file, as `MOCKSERVER_FAULTS` takes it) under `seed`.
    /// - Throws: ``RecorderError`` when the first run passes, no fault fired in it, the deterministic plan
    ///   does not fail, or the command fails with every rule taken out.
    func shrink(plan: String, seed: UInt64?) async throws -> Reduction {
        var runs = 0
        func attempt(_ environment: [String: String], rules: Int) async throws -> (failed: Bool, decisions: [FaultLogLine]) {
            runs += 1
            let result = try await run(environment, runs)
            progress(runs, rules, result.failed)
            return result
        }
        var base = [FaultPlan.faultsVariable: plan]
        if let seed { base[FaultPlan.seedVariable] = String(seed) }
        let seedText = seed.map { " with seed \($0)" } ?? ""
        let first = try await attempt(base, rules: -1)
        guard first.failed else {
            throw RecorderError.failure("the command passes under the plan\(seedText): there is no failure to shrink")
        }
        let decisions = Array(Set(first.decisions.compactMap(Decision.init))).sorted()
        guard !decisions.isEmpty else {
            throw RecorderError.failure("the command fails under the plan\(seedText), but no fault fired: the failure is not the plan's")
        }
        func environment(_ kept: [Decision]) -> [String: String] {
            var environment = base
            environment[FaultPlan.faultsVariable] = Decision.plan(kept)
            return environment
        }
        guard try await attempt(environment(decisions), rules: decisions.count).failed else {
            throw RecorderError.failure(
                "the \(decisions.count) faults that fired, as a deterministic plan, do not make the command fail: it depends on timing or on which server a request reached"
            )
        }
        var kept = decisions
        var removedOne = true
        var budgetSpent = false
        // Plans already run and found to pass: a later pass never runs one again (the last rule of a pass that
        // removed others would otherwise be tried once more, to the same end).
        var passing: Set<[Decision]> = []
        while removedOne && !budgetSpent {
            removedOne = false
            var index = 0
            while index < kept.count {
                var candidate = kept
                candidate.remove(at: index)
                if passing.contains(candidate) {
                    index += 1
                    continue
                }
                guard runs < maxRuns else {
                    budgetSpent = true
                    break
                }
                if try await attempt(environment(candidate), rules: candidate.count).failed {
                    guard !candidate.isEmpty else {
                        throw RecorderError.failure("the command fails with every rule taken out: the failure is not the plan's")
                    }
                    kept = candidate
                    removedOne = true
                } else {
                    passing.insert(candidate)
                    index += 1
                }
            }
        }
        return Reduction(rules: Decision.rules(kept), fired: decisions.count, runs: runs, budgetSpent: budgetSpent)
    }

    /// One fault that fired, aimed at its request (or connection) alone.
    struct Decision: Hashable, Comparable {
        /// The fault in the CLI spelling, without trigger or filters.
        let fault: String
        /// `GET` and the path, `nil` for `refuse`.
        let method: String?
        let path: String?
        /// Which of the requests with this method and path (or which connection), from 1.
        let nth: Int

        init?(_ line: FaultLogLine) {
            guard let rule = try? FaultRule.parse(spec: line.fault) else { return nil }
            fault = rule.fault.description
            if let method = line.method, let path = line.path, let nth = line.nth {
                (self.method, self.path, self.nth) = (method, path, nth)
            } else if let connection = line.connection {
                (method, path, nth) = (nil, nil, connection)
            } else {
                return nil
            }
        }

        static func < (lhs: Decision, rhs: Decision) -> Bool {
            (lhs.method ?? "", lhs.path ?? "", lhs.nth, lhs.fault) < (rhs.method ?? "", rhs.path ?? "", rhs.nth, rhs.fault)
        }

        /// The rules of `decisions`. A rule counts only the requests no earlier rule took, so the `k`th rule of one
        /// method and path fires at its request's rank less the `k - 1` taken before it.
        static func rules(_ decisions: [Decision]) -> [String] {
            var taken: [String: Int] = [:]
            return decisions.sorted().map { decision in
                let key = "\(decision.method ?? "") \(decision.path ?? "")"
                let nth = decision.nth - (taken[key] ?? 0)
                taken[key, default: 0] += 1
                guard let method = decision.method, let path = decision.path else { return "\(decision.fault),when=nth:\(nth)" }
                return "\(decision.fault),when=nth:\(nth),path=\(glob(path)),method=\(method)"
            }
        }

        static func plan(_ decisions: [Decision]) -> String { rules(decisions).joined(separator: "; ") }

        /// The path as a glob matching it: characters a glob or the spec spelling reads specially match as `?`.
        private static func glob(_ path: String) -> String {
            String(path.map { "*?,;".contains($0) || $0.isWhitespace ? "?" : $0 })
        }
    }
}
