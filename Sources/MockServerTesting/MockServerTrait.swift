import Foundation
import ServiceReplayShared
import MockServer
import Testing

/// The Swift Testing trait `.mockServer(...)`: each test it applies to runs with a ``MockServer/CassetteServer``
/// of its own, started before the test and stopped after it, reachable from the test as
/// `CassetteServer.current`. Applied to a suite, it applies to every test in it; parallel tests (and each
/// case of a parameterized test) get their own server.
///
/// The record mode comes from the environment, as for `withMockServer(replaying:upstream:)`: replay by
/// default, `MOCKSERVER_RECORD=once|new-episodes|all` to record, `MOCKSERVER_LIVE=1` to talk to the real
/// API. In `all` mode the new cassette replaces the old one only when the test recorded no failure (a
/// thrown error or any failing issue, such as an `#expect` that failed without throwing), and it keeps the
/// old cassette's hand-written `note`, `matching` and `errorTemplates`. Tests sharing a cassette take turns
/// on it while it is recorded, and a test with faults in a mode that records runs twice: once to record, its
/// failures shown as known issues, then against the recording with its faults (see
/// the article "Recording from your tests").
public struct MockServerTrait: TestTrait, SuiteTrait, TestScoping {
    let cassette: String?
    let upstream: String?
    let folder: URL?
    let configuration: CassetteServer.Configuration
    let allowsUnusedInteractions: Bool
    /// Whether each test case's server gets a `VirtualClock` of its own.
    var virtualClock = false
    let filePath: String
    /// Where the record mode and the other `MOCKSERVER_` variables are read; `nil` for
    /// ``MockServer/TestEnvironment/current`` (the process's environment).
    var environment: [String: String]?
    /// Tells this trait apart from another `.mockServer` on the same test (a copy keeps it).
    private let identity = UUID()

    /// `true`: on a suite, the trait applies to every test in it, nested suites included.
    public var isRecursive: Bool { true }

    /// A scope for each test case, none for a suite itself or a parameterized test as a whole. A test with
    /// several `.mockServer` traits (its suite's and its own, say) runs with the innermost alone: the test's
    /// own, else its nearest suite's, whose cassette and faults then replace the outer ones for that test.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> MockServerTrait? {
        guard testCase != nil else { return nil }
        // Swift Testing puts inherited traits before a test's own, outer suites first.
        let innermost = test.traits.last { $0 is MockServerTrait } as? MockServerTrait
        return innermost.map { $0.identity == identity } ?? true ? self : nil
    }

    /// Runs the test case with its server, then settles the recording and reports, as failures of the test
    /// at the test's source location:
    /// in strict mode each unmatched request with its near miss; unused interactions when they are not
    /// allowed; for a failing test, the transport failures its cassettes replayed (what it saw on the wire
    /// names no cassette); and a missing cassette, a bad record mode or a missing upstream before the test runs.
    /// Cassettes older than `MOCKSERVER_MAX_AGE_DAYS` are reported as warnings.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        // A test naming faults is skipped under the live modes (see CassetteSession.skipTest).
        _ = try await CassetteSession.$skipTest.withValue(testSkipper()) { try await run(test, function) }
    }

    /// The test case `test` with its server; whether it passed.
    private func run(_ test: Test, _ function: @Sendable () async throws -> Void) async throws -> Bool {
        var configuration = configuration
        if virtualClock { configuration.clock = VirtualClock() }
        return try await CassetteSession.forTest(
            names: [cassette ?? Self.cassetteName(for: test)], folder: folder, upstream: upstream,
            configuration: configuration, filePath: filePath, function: test.name,
            environment: environment ?? TestEnvironment.current,
            warn: { $0.forEach { reportWarning($0, at: test.sourceLocation) } },
            rehearse: rehearsal(at: test.sourceLocation)
        ) { session, server in
            // The clock stands where the cassette was recorded, as `withReplay`'s does.
            if virtualClock, let recordedAt = session.recordedAt { server.configuration.clock?.setStart(recordedAt) }
            let (result, failed) = await observingFailures(function)
            if virtualClock, let clock = server.configuration.clock, clock.realTimeAnswers > 0 {
                // The clock was asked for and did nothing for these answers: the test's timing was the machine's.
                Issue.record(
                    Comment(
                        rawValue:
                            "virtualClock: true, but the server gave \(clock.realTimeAnswers) timed answer(s) in real time to requests that named no transfer on its clock; give the test's ServiceKit client the clock: WebServiceClient.Configuration(clock: CassetteServer.current?.configuration.clock)"
                    ), sourceLocation: test.sourceLocation)
            }
            if failed == true, let replayed = server.replayedFailures(test: CassetteSession.testName(test.name)) {
                // What the failing test saw on the wire (a reset, a timeout) names no cassette; this does.
                Issue.record(Comment(rawValue: replayed))
            }
            if case .failure(let error) = result {
                // Recorded as Swift Testing records a test's thrown error (at the test), so that the settling
                // of the recording still runs and can say where a kept-aside recording went.
                Issue.record(error, sourceLocation: test.sourceLocation)
                return false
            }
            if !allowsUnusedInteractions {
                try server.verifyEveryInteractionUsed()
            }
            return failed != true
        } passed: {
            $0
        }
    }

    /// The cassette of a test that names none: its suites and its name, such as `UsersTests/fetchesOctocat`
    /// for `UsersTests.fetchesOctocat()`.
    static func cassetteName(for test: Test) -> String {
        test.id.nameComponents.map(CassetteSession.testName).joined(separator: "/")
    }
}

/// The `.mockServer(...)` spelling of ``MockServerTrait`` in a test's or suite's traits.
extension Trait where Self == MockServerTrait {
    /// Runs each test with its own ``MockServer/CassetteServer`` for `cassette`, in the record mode the
    /// environment gives (see ``MockServerTrait``).
    ///
    /// ```swift
    /// @Test(.mockServer("github/users", upstream: "https://api.github.com"))
    /// func octocat() async throws {
    ///     let server = try #require(CassetteServer.current)
    ///     let session = URLSession(configuration: try server.sessionConfiguration())
    ///     ...
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - cassette: the cassette's name in the recordings folder, such as `github/users`; default the
    ///     test's suites and name (`UsersTests/octocat`).
    ///   - upstream: the real API a recording forwards to; default the cassette's own `upstream` field.
    ///     `MOCKSERVER_UPSTREAM`, when set, wins over both.
    ///   - folder: the recordings folder; default the nearest `Recordings/` above the test's file.
    ///   - strict: whether an unmatched request fails the test with its near-miss report; default `true`.
    ///   - faults: the fault plan; default the environment's (`MOCKSERVER_FAULTS`). Replay only. Give specs as
    ///     `.specs("status=503")`: a mistake in them then fails this test alone, with the parse's sentence.
    ///   - allowUnusedInteractions: whether interactions no request used are fine; default `true`. When
    ///     `false`, the test fails listing them.
    ///   - virtualClock: whether each test case's server runs on a `VirtualClock` of its own, standing at the
    ///     cassette's recording date; default `false` (the real clock). The test gives it to its ServiceKit
    ///     client (`CassetteServer.current?.configuration.clock`), so that the server's time-based faults and
    ///     the client's timeout and retries are compared on it and nothing sleeps. `true` replaces any
    ///     `configuration.clock`, which parallel test cases would otherwise share. A test whose requests get a
    ///     timed fault (latency, stall, throttle, a stream's gaps) without naming a transfer on the clock (a
    ///     plain `URLSession`, a client not given the clock) fails, saying so: those answers ran in real time.
    ///   - configuration: everything else about the server; its `strict` and `faults` are replaced by the
    ///     arguments above.
    ///   - filePath: where to start looking for `Recordings/`; leave the default.
    public static func mockServer(
        _ cassette: String? = nil,
        upstream: String? = nil,
        in folder: URL? = nil,
        strict: Bool = true,
        faults: CassetteServer.FaultSource = .environment,
        allowUnusedInteractions: Bool = true,
        virtualClock: Bool = false,
        configuration: CassetteServer.Configuration = CassetteServer.Configuration(),
        filePath: String = #filePath
    ) -> Self {
        var configuration = configuration
        configuration.strict = strict
        configuration.faults = faults
        return MockServerTrait(
            cassette: cassette, upstream: upstream, folder: folder, configuration: configuration,
            allowsUnusedInteractions: allowUnusedInteractions, virtualClock: virtualClock, filePath: filePath)
    }
}
