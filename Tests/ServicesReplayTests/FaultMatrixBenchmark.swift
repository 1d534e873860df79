import Foundation
import ExampleServices
import MockServer
import ServiceKit
import ServiceReplayTesting
import Testing

/// The benchmark behind `Tests/Benchmarks/run.sh matrix` (skipped unless `FAULT_MATRIX_BENCHMARK` is set):
/// GitHub's user service through its 24-row matrix with a 1 s client timeout, once on the real clock, then
/// `FAULT_MATRIX_ROUNDS` times (default 5) on the virtual clock. Each virtual run must give every row the
/// verdict and outcome the real run gave; the times are printed, never asserted (the target, under 100 ms of
/// wall time on the virtual clock, is the script's to report).
@Suite(.serialized) struct FaultMatrixBenchmark {
    static let environment = ProcessInfo.processInfo.environment

    @Test(.enabled(if: environment["FAULT_MATRIX_BENCHMARK"] != nil))
    func virtualMatrix_givesTheRealVerdicts_inAFractionOfTheTime() async throws {
        let rounds = max(1, Int(Self.environment["FAULT_MATRIX_ROUNDS"] ?? "") ?? 5)
        let real = try await Self.matrix(.real)
        #expect(real.failures.isEmpty, "\(real)")
        var virtual: [Duration] = []
        for _ in 0..<rounds {
            let report = try await Self.matrix(.virtual)
            #expect(Self.verdicts(report) == Self.verdicts(real), "the virtual run:\n\(report)\nthe real run:\n\(real)")
            virtual.append(report.elapsed)
        }
        virtual.sort()
        let median = virtual[virtual.count / 2]
        print(
            "matrix: \(real.rows.count) rows, \(rounds) virtual runs with the real run's verdicts; wall time virtual median \(Self.milliseconds(median)) ms (min \(Self.milliseconds(virtual[0])), max \(Self.milliseconds(virtual[virtual.count - 1]))), real \(Self.milliseconds(real.elapsed)) ms, ratio virtual/real \(String(format: "%.3f", median / real.elapsed))"
        )
    }

    static func matrix(_ timing: FaultMatrix.Timing) async throws -> FaultMatrix.Report {
        try await TestEnvironment.isolated {
            try await FaultMatrix.run(
                GitHubUserService(login: "octocat"), replaying: "github/users",
                client: { WebServiceClient(baseURL: $0, configuration: .init(timeout: 1)) }, timing: timing)
        }
    }

    /// Each row's fault and verdict, and for the rows whose fault is about time, its outcome too: what must not
    /// depend on the clock. (Which network-level error a broken connection gives may vary from run to run with
    /// libcurl, on either clock.)
    static func verdicts(_ report: FaultMatrix.Report) -> [String] {
        report.rows.map { row in
            let timed = ["stall", "latency", "throttle"].contains { row.case.fault.hasPrefix($0) }
            return timed ? row.description : "\(row.case.fault) | \(row.verdict)"
        }
    }

    static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.1f", Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
    }
}
