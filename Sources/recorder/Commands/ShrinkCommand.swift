import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MockServer

/// `recorder shrink --plan PLAN [--seed N] -- COMMAND...`.
enum ShrinkCommand: Command {
    /// The most runs of the command without `--runs`; the help states it from here.
    static let defaultRuns = 60
    /// The longest one run may take without `--timeout`, in seconds; the help states it from here.
    static let defaultTimeout = 600

    static let help = CommandHelp(
        name: "shrink",
        summary: "reduce a failing run under a random fault plan to a one-line reproduction",
        usage: "recorder shrink --plan PLAN [--seed N] [--runs N] [--timeout SECONDS] [--logs DIR] -- COMMAND [ARGUMENT...]",
        description: """
            Runs COMMAND (a test run that fails under the plan, such as swift test --filter NAME) with
            MOCKSERVER_FAULTS=PLAN and MOCKSERVER_SEED=N, and with MOCKSERVER_FAULT_LOG naming a file where every
            replay server writes the faults it decided. Each fault that fired becomes a deterministic rule
            (FAULT,when=nth:K,path=PATH,method=METHOD: the Kth request with that method and path, on each server);
            then rules are taken out one at a time, each removal kept when COMMAND still fails, until none can
            go. Prints the minimal plan as the MOCKSERVER_FAULTS=... COMMAND line that reproduces the failure.
            COMMAND's output goes to files in --logs DIR (default a new temporary folder), named in the progress
            lines. Build first and pass --skip-build, so that no run spends its time building. A run that
            outlives --timeout is stopped (SIGTERM, then SIGKILL after 5 s) and counts as failing. The exit status is 1 when the first run passes,
            when no fault fired, or when the deterministic plan does not fail.
            """,
        arguments: [.init(spelling: "COMMAND", text: "The failing test run, after --.")],
        options: [
            .init(spelling: "--plan PLAN", text: "The fault plan: specs separated by ; or a plan file."),
            .init(spelling: "--seed N", text: "The seed of the failing run (default: the plan's)."),
            .init(spelling: "--runs N", text: "The most runs of COMMAND in all (default \(defaultRuns))."),
            .init(spelling: "--timeout SECONDS", text: "The longest one run may take (default \(defaultTimeout))."),
            .init(spelling: "--logs DIR", text: "Where each run's output and fault log go (created if missing; default a new temporary folder)."),
        ],
        examples: ["recorder shrink --plan .ci/fault-plans/mixed.json --seed 7 -- swift test --skip-build --filter ChaosTests"]
    )

    static func run(_ arguments: [String], console: Console) async throws(RecorderError) -> Int32 {
        let parsed = try Arguments(arguments, options: ["plan", "seed", "runs", "timeout", "logs"], flags: [], command: "shrink")
        try parsed.expectPositionals(1...Int.max, what: "the command to run, after --", command: "shrink")
        let plan = try parsed.required("plan")
        var seed: UInt64?
        if let text = try parsed.single("seed") {
            guard let value = UInt64(text) else { throw .usage("--seed takes a whole number from 0 to 2^64-1, not '\(text)'") }
            seed = value
        }
        var check = [FaultPlan.faultsVariable: plan]
        if let seed { check[FaultPlan.seedVariable] = String(seed) }
        do {
            _ = try FaultPlan.fromEnvironment(check)
        } catch {
            throw .usage("--plan: \(error.description)")
        }
        let maxRuns = try parsed.integer("runs", in: 2...10_000) ?? defaultRuns
        let timeout = try parsed.integer("timeout", in: 1...86_400) ?? defaultTimeout
        let command = parsed.positionals
        let folder =
            try parsed.single("logs").map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("recorder-shrink-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .failure("cannot create the folder \(folder.path) for the runs' output: \(error.localizedDescription)")
        }
        var shrinker = PlanShrinker(maxRuns: maxRuns) { environment, number in
            try await ChildRun.run(command, number: number, environment: environment, timeout: .seconds(timeout), folder: folder)
        }
        shrinker.progress = { run, rules, failed in
            let what = rules < 0 ? "the plan" : counted(rules, "rule")
            console.print("run \(run): \(what): \(failed ? "fails" : "passes") (output: \(folder.path)/run-\(run).log)")
        }
        let outcome: PlanShrinker.Reduction
        do {
            outcome = try await shrinker.shrink(plan: plan, seed: seed)
        } catch let error as RecorderError {
            throw error
        } catch {
            throw .failure("cannot run \(command.joined(separator: " ")): \(error)")
        }
        let rules = outcome.rules.count == 1 ? "1 rule still makes" : "\(outcome.rules.count) rules still make"
        console.print(
            "\(counted(outcome.fired, "fault")) fired; \(rules) it fail, found in \(counted(outcome.runs, "run"))"
                + (outcome.budgetSpent ? " (the --runs budget ran out: a smaller plan may exist)" : "") + ":")
        var line = "\(FaultPlan.faultsVariable)=\(ShellQuote.quote(outcome.plan))"
        if let seed { line += " \(FaultPlan.seedVariable)=\(seed)" }
        console.print(line + " " + command.map(ShellQuote.word).joined(separator: " "))
        return 0
    }
}

/// One run of the command under test, bounded in time, its output in a file.
enum ChildRun {
    /// Runs `command` (looked up on `PATH`) with `environment` added and `MOCKSERVER_FAULT_LOG` set, and
    /// returns whether it failed (a non-zero exit, or still running after `timeout`) and the logged decisions.
    /// Its files in `folder` are named after `number`.
    static func run(
        _ command: [String], number: Int, environment: [String: String], timeout: Duration, folder: URL
    ) async throws
        -> (failed: Bool, decisions: [FaultLogLine])
    {
        let log = folder.appendingPathComponent("run-\(number).faults.jsonl")
        let output = folder.appendingPathComponent("run-\(number).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        var variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        variables[FaultCoverage.logVariable] = log.path
        process.environment = variables
        process.standardOutput = handle
        process.standardError = handle
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        let seconds = Double(timeout.components.seconds)
        let timedOut = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let late = ended.wait(timeout: .now() + seconds) == .timedOut
                if late {
                    // SIGTERM first, so that a test runner can stop its own children; SIGKILL when it is
                    // ignored (an ignored SIGTERM is inherited across exec) or not heeded within 5 s.
                    process.terminate()
                    if ended.wait(timeout: .now() + 5) == .timedOut {
                        kill(process.processIdentifier, SIGKILL)
                        ended.wait()
                    }
                }
                continuation.resume(returning: late)
            }
        }
        let decisions = FileManager.default.fileExists(atPath: log.path) ? try FaultLogLine.read(from: log) : []
        return (timedOut || process.terminationStatus != 0, decisions)
    }
}
