@testable import recorder
import Foundation
import ServiceReplayShared
@testable import MockServer
import Testing

/// `recorder shrink`: the reduction against real servers on loopback (in-process runs), and the command's
/// sentences through the built `recorder`.
@Suite(.timeLimit(.minutes(2))) struct ShrinkCommandTests {
    /// Six rules at even odds: two aimed at /a and /b, four anywhere.
    static let plan = """
        status=503,when=p:0.5,path=/a; status=500,when=p:0.5,path=/b; status=502,when=p:0.3; \
        status=504,when=p:0.3; latency=1ms,when=p:0.5; content-type=text/html,when=p:0.5
        """

    /// The "test": three rounds of GET /a, /b and /c against a server under the environment's plan. It fails
    /// only when /a got a 503 and /b a 500, both.
    static func test(_ environment: [String: String]) async throws -> (failed: Bool, decisions: [FaultLogLine]) {
        let plan = try #require(try FaultPlan.fromEnvironment(environment))
        let server = try CassetteServer(cassettes: [], configuration: .init(faults: .plan(plan)))
        for path in ["/a", "/b", "/c"] { server.add(.stub("GET", path, text: path)) }
        let base = try await server.start()
        let http = LoopbackHTTP()
        var statuses: [String: Set<Int>] = [:]
        for _ in 1...3 {
            for path in ["/a", "/b", "/c"] {
                statuses[path, default: []].insert(try await http.send("GET", path, to: base).status)
            }
        }
        http.close()
        await server.stop()
        let failed = statuses["/a", default: []].contains(503) && statuses["/b", default: []].contains(500)
        return (failed, FaultCoverage.decisions(in: server.journal.entries))
    }

    @Test func failingRandomPlan_shrinksToTheTwoFaultsThatMatter_andTheLineReproducesIt() async throws {
        // GIVEN the first seed under which the six-rule plan makes the test fail (seeds tried in order, bounded)
        var seed: UInt64?
        for candidate in UInt64(1)...200
        where try await Self.test([
            FaultPlan.faultsVariable: Self.plan,
            FaultPlan.seedVariable: String(candidate),
        ]).failed {
            seed = candidate
            break
        }
        let failingSeed = try #require(seed, "no seed from 1 to 200 makes the test fail")

        // WHEN the run is shrunk
        let shrinker = PlanShrinker(maxRuns: 40) { environment, _ in try await Self.test(environment) }
        let outcome = try await shrinker.shrink(plan: Self.plan, seed: failingSeed)

        // THEN exactly the two faults that matter are left, each aimed at one request
        #expect(outcome.rules.count == 2, "\(outcome.rules)")
        #expect(outcome.rules.first?.hasPrefix("status=503,when=nth:") == true)
        #expect(outcome.rules.first?.hasSuffix(",path=/a,method=GET") == true)
        #expect(outcome.rules.last?.hasPrefix("status=500,when=nth:") == true)
        #expect(outcome.rules.last?.hasSuffix(",path=/b,method=GET") == true)
        #expect(!outcome.budgetSpent)
        // AND the plan it prints makes the test fail again, whatever the seed
        #expect(try await Self.test([FaultPlan.faultsVariable: outcome.plan]).failed)
    }

    @Test func deterministicRules_countOnlyTheRequestsEarlierRulesLeft() throws {
        // GIVEN faults that fired at the 2nd and 4th GET /a
        let lines = [
            FaultLogLine(fault: "reset,when=p:0.5", method: "GET", path: "/a", nth: 4),
            FaultLogLine(fault: "status=503,when=p:0.2,path=/a*", method: "GET", path: "/a", nth: 2),
        ]
        // WHEN they become rules
        let rules = PlanShrinker.Decision.rules(lines.compactMap(PlanShrinker.Decision.init))
        // THEN the second counts one request fewer: the first took one
        #expect(rules == ["status=503,when=nth:2,path=/a,method=GET", "reset,when=nth:3,path=/a,method=GET"])
    }

    @Test func deterministicRules_aimAtTheirPath_withEveryCharacterAGlobReadsSpeciallyAsAQuestionMark_andRefuseAtItsConnection() throws {
        let lines = [
            FaultLogLine(fault: "reset", method: "GET", path: "/a b*c?d,e;f", nth: 1),
            FaultLogLine(fault: "refuse,when=p:0.5", connection: 3),
            FaultLogLine(fault: "status=503", method: "GET", path: "/x"),
            FaultLogLine(fault: "no such fault", method: "GET", path: "/x", nth: 1),
        ]
        let decisions = lines.compactMap(PlanShrinker.Decision.init)
        // The line without a rank and the line whose fault does not parse are no decision.
        #expect(decisions.count == 2)
        #expect(PlanShrinker.Decision.plan(decisions) == "refuse,when=nth:3; reset,when=nth:1,path=/a?b?c?d?e?f,method=GET")
    }

    /// Three faults that fired, at GET /a, /b and /c.
    static let threeFaults = ["/c", "/a", "/b"].map { FaultLogLine(fault: "status=503,when=p:0.5", method: "GET", path: $0, nth: 1) }

    @Test func smallRunBudget_makesExactlyThatManyRuns_andSaysItWasSpent() async throws {
        // GIVEN a test that fails under whatever rules are left, and a budget of four runs
        let environments = Lock<[[String: String]]>([])
        let numbers = Lock<[Int]>([])
        var shrinker = PlanShrinker(maxRuns: 4) { environment, number in
            environments.withLock { $0.append(environment) }
            numbers.withLock { $0.append(number) }
            return (true, Self.threeFaults)
        }
        let progress = Lock<[String]>([])
        shrinker.progress = { run, rules, failed in progress.withLock { $0.append("\(run) \(rules) \(failed)") } }
        // WHEN it shrinks
        let outcome = try await shrinker.shrink(plan: "status=503,when=p:0.5", seed: 7)
        // THEN it makes exactly four runs: the plan, the three rules, then two removals, and says the budget ran out
        #expect(numbers.withLock { $0 } == [1, 2, 3, 4])
        #expect(progress.withLock { $0 } == ["1 -1 true", "2 3 true", "3 2 true", "4 1 true"])
        #expect(outcome == PlanShrinker.Reduction(rules: ["status=503,when=nth:1,path=/c,method=GET"], fired: 3, runs: 4, budgetSpent: true))
        // AND each run had the seed, the first the plan, the others the rules left (the first rule out first)
        #expect(environments.withLock { $0 }.map { $0[FaultPlan.seedVariable] } == ["7", "7", "7", "7"])
        #expect(
            environments.withLock { $0 }.map { $0[FaultPlan.faultsVariable] ?? "" } == [
                "status=503,when=p:0.5",
                "status=503,when=nth:1,path=/a,method=GET; status=503,when=nth:1,path=/b,method=GET; status=503,when=nth:1,path=/c,method=GET",
                "status=503,when=nth:1,path=/b,method=GET; status=503,when=nth:1,path=/c,method=GET",
                "status=503,when=nth:1,path=/c,method=GET",
            ])
    }

    @Test func aRuleThatMustStay_isKept_andTheBudgetIsNotSpentWhenNothingMoreCanGo() async throws {
        // GIVEN a test that fails only while the rule for /b is in the plan
        let numbers = Lock(0)
        let shrinker = PlanShrinker(maxRuns: 60) { environment, _ in
            numbers.withLock { $0 += 1 }
            let plan = environment[FaultPlan.faultsVariable] ?? ""
            return (plan == "status=503,when=p:0.5" || plan.contains("path=/b"), Self.threeFaults)
        }
        let outcome = try await shrinker.shrink(plan: "status=503,when=p:0.5", seed: nil)
        // THEN /a goes, /b stays, /c goes, and a second pass confirms /b alone: 1 + 1 + 3 + 1 runs
        #expect(outcome == PlanShrinker.Reduction(rules: ["status=503,when=nth:1,path=/b,method=GET"], fired: 3, runs: 6, budgetSpent: false))
        #expect(numbers.withLock { $0 } == 6)
        #expect(outcome.plan == "status=503,when=nth:1,path=/b,method=GET")
    }

    @Test func deterministicPlanThatPasses_isOneSentence() async throws {
        let shrinker = PlanShrinker(maxRuns: 60) { environment, number in (number == 1, Self.threeFaults) }
        let error = await #expect(throws: RecorderError.self) { try await shrinker.shrink(plan: "status=503,when=p:0.5", seed: 2) }
        #expect(
            error
                == .failure(
                    "the 3 faults that fired, as a deterministic plan, do not make the command fail: it depends on timing or on which server a request reached")
        )
    }

    @Test func smallRunsOption_makesExactlyThatManyRunsOfTheCommand_andSaysTheBudgetRanOut() async throws {
        // GIVEN a command that logs three faults and fails on every run, counting its runs in a file
        let workspace = try Workspace()
        defer { workspace.remove() }
        let count = workspace.url("runs.txt")
        let script =
            #"for p in /a /b /c; do printf '{"fault":"status=503","method":"GET","path":"%s","nth":1}\n' "$p" >> "$MOCKSERVER_FAULT_LOG"; done; echo run >> "$1"; exit 1"#
        // WHEN it is shrunk with --runs 3
        let result = try await workspace.run(["shrink", "--plan", "status=503,when=p:0.5", "--runs", "3", "--", "sh", "-c", script, "sh", count.path])
        // THEN the command ran exactly three times, each run has its progress line, and the budget is said spent
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: try Data(contentsOf: count), as: UTF8.self) == "run\nrun\nrun\n")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("run ") }.map { $0.prefix(while: { $0 != ":" }) } == ["run 1", "run 2", "run 3"], "\(result.stdout)")
        #expect(result.stdout.contains(" found in 3 runs (the --runs budget ran out: a smaller plan may exist):\n"), "\(result.stdout)")
        #expect(
            lines.last?.hasPrefix("MOCKSERVER_FAULTS='status=503,when=nth:1,path=/b,method=GET; status=503,when=nth:1,path=/c,method=GET' sh -c ") == true,
            "\(result.stdout)")
    }

    @Test func commandThatPasses_hasNothingToShrink() async throws {
        let result = try await runRecorder(["shrink", "--plan", "status=503,when=p:0.5", "--seed", "3", "--", "true"])
        #expect(result.status == 1)
        #expect(result.stderr == "recorder: the command passes under the plan with seed 3: there is no failure to shrink\n")
    }

    @Test func commandThatFailsWithoutAFault_isNotThePlans() async throws {
        let result = try await runRecorder(["shrink", "--plan", "status=503,when=p:0.5", "--", "false"])
        #expect(result.status == 1)
        #expect(result.stderr == "recorder: the command fails under the plan, but no fault fired: the failure is not the plan's\n")
    }

    @Test func runPastItsTimeout_isStopped_andCountsAsFailing() async throws {
        // GIVEN a command that would take a minute (and may ignore SIGTERM, as children of a shell that ignores
        // it do), and a one-second bound per run
        let started = ContinuousClock.now
        let result = try await runRecorder(["shrink", "--plan", "status=503,when=p:0.5", "--timeout", "1", "--", "sleep", "60"])
        // THEN the run is stopped and counts as failing, with no fault behind it: the verdict is the event (left to
        // end, `sleep 60` would pass), and no upper bound in wall time is needed; nor is it stopped before its timeout
        #expect(result.status == 1)
        #expect(result.stderr == "recorder: the command fails under the plan, but no fault fired: the failure is not the plan's\n")
        #expect(ContinuousClock.now - started >= .seconds(1))
    }

    /// A run of a "test" that fails exactly when the plan holds every rule in `needed`, and whose first
    /// (probabilistic) run logs `fired`.
    static func fake(fired: [String], needed: Set<String>, runs: Lock<[String]>) -> PlanShrinker.Run {
        { environment, _ in
            let plan = environment[FaultPlan.faultsVariable] ?? ""
            runs.withLock { $0.append(plan) }
            let lines = fired.enumerated().map { FaultLogLine(fault: $1, method: "GET", path: "/\($0)", nth: 1) }
            // Each rule's fault kind: `garbage` of `garbage=512,when=nth:1,...`.
            let rules = Set(
                plan.split(separator: ";").map { String($0.split(separator: ",")[0].split(separator: "=")[0]).trimmingCharacters(in: .whitespaces) })
            return (needed.isSubset(of: rules) && !plan.isEmpty, plan.contains("p:") ? lines : [])
        }
    }

    @Test func reductionStops_whenNoRuleCanGo_neverRunningAPlanTwice() async throws {
        // GIVEN three faults that fired, of which only the last matters
        let runs = Lock<[String]>([])
        let shrinker = PlanShrinker(maxRuns: 60, run: Self.fake(fired: ["reset", "empty", "garbage"], needed: ["garbage"], runs: runs))
        // WHEN the run is shrunk
        let outcome = try await shrinker.shrink(plan: "reset,when=p:0.5; empty,when=p:0.5; garbage,when=p:0.5", seed: 1)
        // THEN one rule is left, found in 5 runs: the plan, all three, two removals kept, the last rule's removal
        // tried once (a second pass would try it again, to the same end)
        #expect(outcome.rules == ["garbage=256,when=nth:1,path=/2,method=GET"])
        #expect(outcome.runs == 5, "\(runs.withLock { $0 })")
        let plans = runs.withLock { $0 }
        #expect(Set(plans).count == plans.count, "a plan ran twice: \(plans)")
    }

    @Test func commandThatFailsWithEveryRuleTakenOut_isNotThePlans() async throws {
        // GIVEN a "test" that fails under any plan, once a fault fired in its first run
        let runs = Lock<[String]>([])
        let always: PlanShrinker.Run = { environment, number in
            runs.withLock { $0.append(environment[FaultPlan.faultsVariable] ?? "") }
            return (true, number == 1 ? [FaultLogLine(fault: "reset,when=p:0.5", method: "GET", path: "/a", nth: 1)] : [])
        }
        // WHEN it is shrunk, THEN the empty plan's failure says the failure is not the plan's
        let error = await #expect(throws: RecorderError.self) {
            try await PlanShrinker(maxRuns: 60, run: always).shrink(plan: "reset,when=p:0.5", seed: 1)
        }
        #expect(error?.message == "the command fails with every rule taken out: the failure is not the plan's")
        #expect(runs.withLock { $0.count } == 3)
    }

    @Test func oneRuleLeft_isSingular_andTheLogsGoWhereAsked() async throws {
        // GIVEN a command that writes a fault decision to the fault log and fails whenever a 503 is in the plan
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shrink-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let logs = folder.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("test.sh")
        try """
        #!/bin/sh
        case "$MOCKSERVER_FAULTS" in
        *status=503*) echo '{"fault":"status=503,when=p:0.5","method":"GET","path":"/a","nth":1}' > "$MOCKSERVER_FAULT_LOG"; echo failed; exit 1 ;;
        *) exit 0 ;;
        esac
        """.write(to: script, atomically: true, encoding: .utf8)
        // WHEN it is shrunk with its logs in a folder of our choosing
        let result = try await runRecorder(["shrink", "--plan", "status=503,when=p:0.5", "--seed", "1", "--logs", logs.path, "--", "sh", script.path])
        // THEN one rule is left, said in the singular, and each run's output is in that folder
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 fault fired; 1 rule still makes it fail, found in 3 runs:"), "\(result.stdout)")
        #expect(result.stdout.contains("run 1: the plan: fails (output: \(logs.path)/run-1.log)"), "\(result.stdout)")
        #expect(result.stdout.contains("run 2: 1 rule: fails (output: \(logs.path)/run-2.log)"), "\(result.stdout)")
        #expect(result.stdout.contains("run 3: 0 rules: passes (output: \(logs.path)/run-3.log)"), "\(result.stdout)")
        #expect(try String(contentsOf: logs.appendingPathComponent("run-1.log"), encoding: .utf8) == "failed\n")
    }

    @Test func helpAndReadme_giveTheSameExample() throws {
        // The shrink example (the fault matrix article's, once the README's) builds first and passes --skip-build,
        // as the help's does
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Sources/ServiceReplayTesting/ServiceReplayTesting.docc/TheFaultMatrix.md"), encoding: .utf8)
        let example = try #require(ShrinkCommand.help.examples.first)
        let command = try #require(example.split(separator: " -- ", maxSplits: 1).last)
        #expect(readme.contains("-- \(command)\n"), "FaultMatrix.md lacks: -- \(command)")
        #expect(readme.contains("swift build --build-tests\nrecorder shrink "))
    }

    @Test func runIgnoringSIGTERM_isKilled_fiveSecondsLater() async throws {
        // GIVEN a command that ignores SIGTERM and would take a minute, and a one-second bound per run (exec: the
        // ignored signal carries over, and no grandchild outlives the run)
        let started = ContinuousClock.now
        let result = try await runRecorder(["shrink", "--plan", "status=503,when=p:0.5", "--timeout", "1", "--", "sh", "-c", "trap '' TERM; exec sleep 60"])
        // THEN SIGKILL ends it: the run counts as failing (left to end, the command would pass), and the SIGKILL
        // came no sooner than 5 s after the SIGTERM at the one-second timeout
        #expect(result.status == 1)
        #expect(result.stderr == "recorder: the command fails under the plan, but no fault fired: the failure is not the plan's\n")
        #expect(ContinuousClock.now - started >= .seconds(6))
    }

    @Test(arguments: [
        (["shrink", "--plan", "reset"], "recorder: shrink needs the command to run, after --; run `recorder shrink --help`\n"),
        (["shrink", "--plan", "reset", "--runs", "1", "--", "true"], "recorder: --runs '1' is not a whole number from 2 to 10000\n"),
        (["shrink", "--plan", "reset", "--timeout", "0", "--", "true"], "recorder: --timeout '0' is not a whole number from 1 to 86400\n"),
        (["shrink", "--plan", "reset", "--seed", "-1", "--", "true"], "recorder: --seed takes a whole number from 0 to 2^64-1, not '-1'\n"),
    ])
    func badCommandLine_isAUsageError(arguments: [String], message: String) async throws {
        let result = try await runRecorder(arguments)
        #expect(result.status == 2)
        #expect(result.stderr == message)
    }

    @Test func invalidPlan_isAUsageError() async throws {
        let result = try await runRecorder(["shrink", "--plan", "stal", "--", "true"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("recorder: --plan: "))
    }

    @Test func help_statesTheDefaultsTheCommandUses() {
        // The help is built from the same constants the command falls back on, so this pins both.
        #expect(ShrinkCommand.help.options.first { $0.spelling == "--runs N" }?.text == "The most runs of COMMAND in all (default 60).")
        #expect(ShrinkCommand.help.options.first { $0.spelling == "--timeout SECONDS" }?.text == "The longest one run may take (default 600).")
    }
}
