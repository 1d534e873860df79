import Foundation
@testable import MockServer
import ServiceKit

/// How a chaos run is set up, from the environment.
///
/// - `MOCKSERVER_FAULTS` / `MOCKSERVER_SEED`: the random plan (a plan file or inline specs), read as
///   MockServer reads them (`FaultPlan.fromEnvironment`); each call's server runs it with its own seed
///   derived from the run's (``faults(forCall:)``). Unset: the run uses ``builtInPlan``, so that the normal
///   `swift test` exercises this suite too.
/// - `SERVICES_CHAOS_REPEATS`: how often each call is made (default 12 under an environment plan, 3 under the
///   built-in one; at most 200).
/// - `SERVICES_CHAOS_REPORT`: a file the run appends its heading and table to, for CI to print.
/// - `SERVICES_CHAOS_LOG`: a file the run appends one JSON line per call to.
struct ChaosSettings: Sendable {
    /// The plan in force, with the run's seed.
    let plan: FaultPlan
    /// Whether the plan came from the environment.
    let fromEnvironment: Bool
    /// How often each call is made.
    let repeats: Int
    /// The report and log files, when asked for.
    let reportFile: URL?
    let logFile: URL?

    /// Every call is made with this client: a timeout short enough that stalls end quickly, long enough that
    /// an answered request never times out on a loaded machine, and one retry for idempotent calls, so that
    /// retrying is exercised under faults too (its waits are virtual).
    static func clientOptions(for call: ServiceCall) -> ClientOptions {
        ClientOptions(timeout: 5, retryPolicy: RetryPolicy(maxAttempts: 2, jitter: 0), commonParameters: call.commonParameters)
    }

    /// A mix of every family at low rates with a fixed seed: what the normal test run uses.
    static let builtInPlan = """
        refuse,when=p:0.03; reset,when=p:0.05; empty,when=p:0.04; truncate=body:10,when=p:0.04; \
        malformed-chunk,when=p:0.04; garbage,when=p:0.04; stall,when=p:0.01; latency=10..60ms,when=p:0.1; \
        status=503,when=p:0.05; status=429,when=p:0.03; corrupt-body,when=p:0.04; content-type=text/html,when=p:0.03; \
        service-error=throttle_violation_in_200,when=p:0.1,path=/2.3/questions; \
        service-error=secondary_rate_limit,when=p:0.1,path=/users*; service-error=maintenance,when=p:0.1,path=/feeds
        """

    /// The settings `environment` asks for; throws ``MockServerError`` for an invalid plan.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if let plan = try FaultPlan.fromEnvironment(environment) {
            (self.plan, fromEnvironment) = (plan, true)
        } else {
            (plan, fromEnvironment) = (try FaultPlan.parse(specs: Self.builtInPlan, seed: 20_261_121), false)
        }
        let asked = environment["SERVICES_CHAOS_REPEATS"].flatMap { Int($0) }
        repeats = min(200, max(1, asked ?? (fromEnvironment ? 12 : 3)))
        reportFile = environment["SERVICES_CHAOS_REPORT"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        logFile = environment["SERVICES_CHAOS_LOG"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
    }

    /// The plan for the server of the `index`th call: the run's plan with the seed mixed with `index`.
    /// Every server counts and draws on its own, so with one seed for all, every call would meet the same
    /// faults at the same repetition; mixing spreads them while the run's seed still reproduces it exactly.
    func faults(forCall index: Int) -> CassetteServer.FaultSource {
        var plan = plan
        plan.seed ^= UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15
        return .plan(plan)
    }

    /// `chaos: seed 7, plan from MOCKSERVER_FAULTS (12 rules), 10 calls × 12 = 120 calls`.
    func heading(calls: Int) -> String {
        let source = fromEnvironment ? "plan from \(FaultPlan.faultsVariable)" : "built-in plan"
        return "chaos: seed \(plan.seed), \(source) (\(plan.rules.count) rules), \(calls) calls × \(repeats) = \(calls * repeats) calls"
    }
}

extension FileManager {
    /// Appends `text` to the file at `url`, creating it (and its folder) when missing.
    func append(_ text: String, to url: URL) throws {
        try createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !fileExists(atPath: url.path) {
            _ = createFile(atPath: url.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }
}
