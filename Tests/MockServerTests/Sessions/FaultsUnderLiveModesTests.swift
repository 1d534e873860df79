import Foundation
@testable import MockServer
import ServiceReplayShared
import Testing

/// A test that names faults cannot have them against the live API (`MOCKSERVER_LIVE=1`, `MOCKSERVER_RECORD=drift`):
/// it is skipped with a sentence where the test framework can skip it, and fails with that sentence elsewhere,
/// before anything is sent; it never runs without its faults and fails with plain expectation failures.
@Suite struct FaultsUnderLiveModesTests {
    struct Skipped: Error {
        let sentence: String
    }

    /// Runs a test helper's session for `api` with `faults` under `environment`; whether its body ran.
    static func run(_ faults: CassetteServer.FaultSource, _ environment: [String: String]) async throws -> Bool {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Cassette(name: "api", upstream: "http://127.0.0.1:9", interactions: [.stub("GET", "/a", text: "a")])
            .save(to: folder.appendingPathComponent("api.json"))
        var configuration = CassetteServer.Configuration(faults: faults)
        configuration.expectsRequests = false
        let ran = Lock(false)
        try await CassetteSession.forTest(
            names: ["api"], folder: folder, upstream: nil, configuration: configuration, filePath: #filePath,
            function: "test()", environment: environment, { _, _ in ran.withLock { $0 = true } }, passed: { _ in true })
        return ran.withLock { $0 }
    }

    @Test(arguments: [(["MOCKSERVER_RECORD": "drift"], "MOCKSERVER_RECORD=drift"), (["MOCKSERVER_LIVE": "1"], "MOCKSERVER_LIVE=1")])
    func faultTest_underALiveMode_isSkippedWithTheSentence_beforeItRuns(environment: [String: String], spelled: String) async throws {
        // WHEN a test naming a 503 fault runs under a live mode, in a framework that can skip it
        await #expect {
            try await CassetteSession.$skipTest.withValue({ throw Skipped(sentence: $0) }) {
                _ = try await Self.run(.specs("status=503"), environment)
            }
        } throws: { error in
            // THEN it is skipped, the sentence naming the fault and the mode
            guard let skipped = error as? Skipped else { return false }
            return skipped.sentence
                == "faults apply only to replays, so under \(spelled) this test's faults (status=503) cannot apply against the live API; the test is cancelled, not run"
        }
    }

    @Test func faultTest_underDrift_whereNothingCanSkipIt_failsWithTheSentence() async throws {
        await #expect {
            _ = try await Self.run(.specs("status=503"), ["MOCKSERVER_RECORD": "drift"])
        } throws: { error in
            "\(error)".contains("this test's faults (status=503) cannot apply against the live API; skip the test in this mode")
        }
    }

    @Test func replayKeepsItsFaults_andTheEnvironmentsPlanDoesNotSkip() async throws {
        let ran = try await CassetteSession.$skipTest.withValue({ throw Skipped(sentence: $0) }) {
            // In replay mode the test runs, with its faults; a suite-wide plan from the environment is the
            // run's, not the test's: it skips nothing
            [
                try await Self.run(.specs("status=503"), [:]),
                try await Self.run(.environment, ["MOCKSERVER_RECORD": "drift", "MOCKSERVER_FAULTS": "status=503"]),
            ]
        }
        #expect(ran == [true, true])
    }
}
