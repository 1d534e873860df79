import Foundation
@testable import MockServer
import Testing

@Suite struct FaultInjectorTests {
    /// Which of `requests` numbered from 1 get a decision from a fresh injector for `spec`.
    private func firing(_ spec: String, requests: Int = 12, seed: UInt64 = 1) throws -> [Int] {
        let injector = FaultInjector(plan: try FaultPlan.parse(specs: spec, seed: seed))
        return (1...requests).filter { _ in injector.decision(method: "GET", path: "/users") != nil }
    }

    @Test(arguments: [
        ("reset", Array(1...12)),
        ("reset,when=first:3", [1, 2, 3]),
        ("reset,when=nth:4", [4]),
        ("reset,when=every:5", [5, 10]),
        ("reset,when=p:0", []),
        ("reset,when=p:1", Array(1...12)),
    ])
    func triggers_fireOnTheRightRequests(spec: String, expected: [Int]) throws {
        #expect(try firing(spec) == expected)
    }

    @Test func probability_sameSeedGivesSameDecisions_otherSeedsDiffer() throws {
        let first = try firing("reset,when=p:0.5", requests: 200, seed: 1234)
        let again = try firing("reset,when=p:0.5", requests: 200, seed: 1234)
        let other = try firing("reset,when=p:0.5", requests: 200, seed: 1235)
        #expect(first == again)
        #expect(first != other)
        // A fair coin over 200 draws lands within 60..140 with overwhelming probability; a broken
        // generator (always or never) does not.
        #expect((60...140).contains(first.count))
    }

    @Test func twoProbabilityRules_withOneSeed_drawFromStreamsOfTheirOwn() throws {
        // Given two p:0.5 rules under one seed, each filtered to its own path
        let specs = "reset,when=p:0.5,path=/a; empty,when=p:0.5,path=/b"
        func decisions(_ injector: FaultInjector, _ path: String, _ count: Int = 64) -> [Bool] {
            (1...count).map { _ in injector.decision(method: "GET", path: path) != nil }
        }

        // When each rule meets 64 requests, one path after the other, then interleaved
        let apart = FaultInjector(plan: try FaultPlan.parse(specs: specs, seed: 77))
        let a = decisions(apart, "/a")
        let b = decisions(apart, "/b")
        let interleaved = FaultInjector(plan: try FaultPlan.parse(specs: specs, seed: 77))
        var mixedA: [Bool] = [], mixedB: [Bool] = []
        for _ in 1...64 {
            mixedA += decisions(interleaved, "/a", 1)
            mixedB += decisions(interleaved, "/b", 1)
        }

        // Then the rules decide differently (one stream would make their 64 decisions identical), each fires
        // sometimes, and neither depends on the other's draws
        #expect(a != b)
        #expect(a.contains(true) && a.contains(false) && b.contains(true) && b.contains(false))
        #expect(mixedA == a && mixedB == b)
    }

    @Test func firstFiringRuleWins_laterRulesCountOnlyWhatReachesThem() throws {
        let injector = FaultInjector(plan: try FaultPlan.parse(specs: "status=503,when=first:2; reset,when=nth:2"))
        let names = (1...4).map { _ in injector.decision(method: "GET", path: "/x")?.fault.name ?? "-" }
        #expect(names == ["status", "status", "-", "reset"])
    }

    @Test func filters_byMethodAndPathGlob() throws {
        let injector = FaultInjector(plan: try FaultPlan.parse(specs: "reset,path=/users*,method=post"))
        #expect(injector.decision(method: "POST", path: "/users/7") != nil)
        #expect(injector.decision(method: "post", path: "/users") != nil)
        #expect(injector.decision(method: "GET", path: "/users") == nil)
        #expect(injector.decision(method: "POST", path: "/feeds") == nil)
    }

    @Test func refuseRules_applyOnAcceptOnly() throws {
        let injector = FaultInjector(plan: try FaultPlan.parse(specs: "refuse,when=first:1; empty"))
        #expect(injector.hasAcceptRules)
        #expect(injector.decisionOnAccept()?.fault == .refuse)
        #expect(injector.decisionOnAccept() == nil)
        #expect(injector.decision(method: "GET", path: "/")?.fault == .empty)
    }

    @Test func decision_recordsRuleCountAndSeed() throws {
        let injector = FaultInjector(plan: try FaultPlan.parse(specs: "empty,when=every:2", seed: 42))
        #expect(injector.decision(method: "GET", path: "/") == nil)
        let decision = try #require(injector.decision(method: "GET", path: "/"))
        #expect(decision.ruleIndex == 0 && decision.count == 2 && decision.seed == 42)
        #expect(decision.description == "rule 1 'empty,when=every:2' on match 2")
    }

    @Test func latencyDraws_stayInRange_andRepeatForTheSameSeed() throws {
        func delays(seed: UInt64) throws -> [Duration] {
            let injector = FaultInjector(plan: try FaultPlan.parse(specs: "latency=100..300ms", seed: seed))
            return (1...50).compactMap { _ in injector.decision(method: "GET", path: "/")?.delay }
        }
        let first = try delays(seed: 5)
        #expect(first.count == 50)
        #expect(first.allSatisfy { $0 >= .milliseconds(100) && $0 <= .milliseconds(300) })
        #expect(Set(first).count > 10)
        #expect(try delays(seed: 5) == first)
    }

    @Test func logNormalDraws_arePositive_cappedAndCentredOnTheMedian() throws {
        let injector = FaultInjector(plan: try FaultPlan.parse(specs: "latency=lognormal:100ms:0.5", seed: 11))
        let delays = (1...400).compactMap { _ in injector.decision(method: "GET", path: "/")?.delay }.sorted()
        #expect(delays.allSatisfy { $0 > .zero && $0 <= LatencyDistribution.logNormalCap })
        // The sample median of 400 draws sits near the true median of 100 ms.
        #expect(delays[200] > .milliseconds(80) && delays[200] < .milliseconds(125))
    }

    @Test func concurrentRequests_countEachMatchExactlyOnce() async throws {
        let injector = FaultInjector(plan: try FaultPlan.parse(specs: "empty,when=first:100"))
        let fired = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<50).filter { _ in injector.decision(method: "GET", path: "/") != nil }.count }
            }
            return await group.reduce(0, +)
        }
        #expect(fired == 100)
    }
}

extension FaultInjector {
    /// The decision for a request with `method` and `path`, parsed as the server parses it.
    fileprivate func decision(method: String, path: String) -> FaultDecision? {
        decision(for: RequestParts(method: method, target: path, headers: [:], body: .empty))
    }
}
