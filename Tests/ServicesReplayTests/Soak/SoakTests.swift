import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import MockServerTesting
import ServiceKit
import ExampleServices
import ServiceReplayTesting
import ServiceReplayShared
import ServiceReplayTestSupport
import Testing

/// The soak benchmark (`Tests/Benchmarks/soak.sh`): every way a test reaches a server, run as many short tests
/// one after the other in one process, as a real app's suite does, each starting a server on the bundled
/// `github/users` cassette, sending one request and stopping it. Off unless `MOCKSERVER_SOAK` gives the number
/// of tests per way.
///
/// Each way is one test that runs its short tests in a loop (the trait's scope is provided by hand, as Swift
/// Testing provides it to each test), so that the figures are the package's, not the test runner's own
/// bookkeeping of thousands of test cases. See ``SoakRun`` for what is printed and what fails.
@Suite(.serialized, .ownEnvironment, .enabled(if: SoakRun.count > 0, "MOCKSERVER_SOAK is not set: Tests/Benchmarks/soak.sh runs these"))
struct SoakTests {
    /// Host routing, as the README recommends for fixed URLs: a session of the test's own from
    /// `server.sessionConfiguration()`, invalidated after the test.
    @Test func routedSession() async {
        await SoakRun.run("routed session") {
            try await withMockServer(replaying: "github/users", configuration: .init(faults: .none)) { server in
                try await Soak.withSession(try server.sessionConfiguration()) { session in
                    try await Soak.getOctocat(session, from: "https://api.github.com")
                }
            }
        }
    }

    /// A server started and stopped by hand, reached at its base URL by a session of the test's own.
    @Test func baseURL() async {
        await SoakRun.run("base URL") {
            let server = try CassetteServer(cassettes: [Soak.users], configuration: .init(faults: .none))
            let baseURL = try await server.start()
            do {
                try await Soak.withSession(.ephemeral) { try await Soak.getOctocat($0, from: baseURL.absoluteString) }
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
        }
    }

    /// `withMockServer(replaying:)`, reached through `URLSession.shared`, which outlives every server.
    @Test func withMockServerClosure() async {
        await SoakRun.run("withMockServer") {
            try await withMockServer(replaying: "github/users", configuration: .init(faults: .none)) { server in
                try await Soak.getOctocat(.shared, from: try #require(server.baseURL).absoluteString)
            }
        }
    }

    /// `withReplay`: a ServiceKit client against the replay.
    @Test func withReplayClient() async {
        await SoakRun.run("withReplay") {
            try await withReplay("github/users", configuration: .init(faults: .none)) { replay in
                let profile = try await replay.client.send(GitHubUserService(login: "octocat"))
                try #require(profile.user.login == "octocat")
            }
        }
    }

    /// The `.mockServer` trait with host routing: its scope, provided for each short test as Swift Testing
    /// provides it to each test case.
    @Test func trait() async throws {
        let test = try #require(Test.current)
        let trait = MockServerTrait.mockServer("github/users", faults: .none)
        await SoakRun.run("trait") {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                let server = try #require(CassetteServer.current)
                try await Soak.withSession(try server.sessionConfiguration()) { session in
                    try await Soak.getOctocat(session, from: "https://api.github.com")
                }
            }
        }
    }

    /// `FaultMatrix.run` of one row, `reset`: a baseline server and a faulted one per test.
    @Test func faultMatrix() async throws {
        let reset = try #require(try FaultMatrix.cases(for: GitHubUserService.self, replaying: "github/users").first { $0.fault == "reset" })
        await SoakRun.run("fault matrix") {
            let report = try await FaultMatrix.run(
                GitHubUserService(login: "octocat"), replaying: "github/users",
                client: { WebServiceClient(baseURL: $0, configuration: .init(timeout: 5)) },
                only: reset)
            try #require(report.failures.isEmpty, "\(report)")
            try #require(report.rows.map(\.case.fault) == ["reset"])
        }
    }

    /// `MOCKSERVER_RECORD=once` from a missing cassette: each test records one exchange through a loopback
    /// upstream, and the cassette is removed after it.
    @Test func recordOnce() async {
        await SoakRun.run("record once") { try await Soak.record(mode: "once") }
    }

    /// `MOCKSERVER_RECORD=new-episodes` from a missing cassette, likewise.
    @Test func recordNewEpisodes() async {
        await SoakRun.run("record new-episodes") { try await Soak.record(mode: "new-episodes") }
    }
}

/// What the soak's tests share: the cassette, the request, the upstream they record from.
enum Soak {
    /// The bundled `github/users` cassette, read once.
    static let users: Cassette = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../Recordings/github/users.json")
        return try! Cassette.load(from: url.standardizedFileURL)
    }()

    /// `GET /users/octocat` at `base` through `session`: it must answer 200 with the profile.
    static func getOctocat(_ session: URLSession, from base: String) async throws {
        let (data, response) = try await session.data(from: try #require(URL(string: base + "/users/octocat")))
        try #require((response as? HTTPURLResponse)?.statusCode == 200)
        try #require(String(decoding: data, as: UTF8.self).contains(#""login":"octocat""#))
    }

    /// Runs `body` with a session of `configuration`, invalidated afterwards as a test's own session should be.
    static func withSession(_ configuration: URLSessionConfiguration, _ body: (URLSession) async throws -> Void) async throws {
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        try await body(session)
    }

    /// The upstream the recording tests forward to: a replay of `github/users` with a short journal, started
    /// once and left running until the process ends.
    static let upstream = Task { () throws -> CassetteServer in
        var configuration = CassetteServer.Configuration(faults: .none)
        configuration.journalCapacity = 16
        let server = try CassetteServer(cassettes: [users], configuration: configuration)
        try await server.start()
        return server
    }

    /// A folder of the soak's own for the recordings, removed with the process's temporary files.
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("soak-\(UUID().uuidString)")

    /// One test recording `soak/users` in `mode` from a missing cassette, through a session of its own at the
    /// server's base URL; the cassette must hold the exchange, and is removed afterwards.
    static func record(mode: String) async throws {
        let upstream = try #require(try await upstream.value.baseURL)
        var environment = TestEnvironment.ownSuite
        environment["MOCKSERVER_RECORD"] = mode
        let cassette = folder.appendingPathComponent("soak/users.json")
        try await TestEnvironment.$override.withValue(environment) {
            try await withMockServer(replaying: "soak/users", in: folder, upstream: upstream.absoluteString) { server in
                try await withSession(.ephemeral) { try await getOctocat($0, from: try #require(server.baseURL).absoluteString) }
            }
        }
        try #require(try Cassette.load(from: cassette).interactions.count == 1)
        try FileManager.default.removeItem(at: cassette)
    }
}

/// One way's run of ``count`` short tests: every ``every`` tests it prints the descriptors open, the resident
/// memory. It fails when a short test fails (stopping after ``maxFailures``, as
/// a process out of descriptors fails every later test, each after its timeout), or when its last checkpoint
/// counts more than ``tolerance`` descriptors above its first.
///
/// A session ends a moment after its test (URLSession invalidates asynchronously), so a checkpoint counts the
/// fewest descriptors seen over the ``window`` tests before it: what a test leaks stays in every count, what
/// is still closing does not.
enum SoakRun {
    /// Tests per way: `MOCKSERVER_SOAK`, or 0 (the soak is off).
    static let count = Int(ProcessInfo.processInfo.environment["MOCKSERVER_SOAK"] ?? "") ?? 0
    /// How often a way is sampled: every 1,000 tests, or four times in a shorter run.
    static let every = max(1, min(1_000, count / 4))
    /// How many tests before a checkpoint count towards it.
    static let window = min(10, every)
    /// How many more descriptors the last checkpoint may count than the first: sessions still closing under
    /// load. A leak of two per test, the one this soak was built for, passes it within five tests, and one of
    /// a descriptor per hundred tests within a 2,000-test run.
    static let tolerance = 8
    /// How many failed tests stop a way.
    static let maxFailures = 10

    private struct Sample {
        let tests: Int
        let descriptors: Int
        let residentBytes: Int?
    }

    /// Runs `test` ``count`` times as `way`, sampling and checking as the type says.
    static func run(_ way: String, _ test: () async throws -> Void) async {
        var samples: [Sample] = []
        var failures = 0
        var fewestDescriptors = Int.max
        for passed in 1...count {
            do {
                try await test()
            } catch {
                // A failed #require has recorded its issue already.
                if !(error is ExpectationFailedError) { Issue.record(error, "soak \(way): test \(passed) failed") }
                failures += 1
                guard failures < maxFailures else {
                    Issue.record("soak \(way): stopped after \(failures) failed tests of \(passed)")
                    return
                }
            }
            guard passed % every == 0 || every - passed % every < window else { continue }
            fewestDescriptors = min(fewestDescriptors, ProcessResources.openDescriptors)
            guard passed % every == 0 else { continue }
            let sample = Sample(tests: passed, descriptors: fewestDescriptors, residentBytes: ProcessResources.residentBytes)
            samples.append(sample)
            fewestDescriptors = .max
            print("soak \(way): \(passed) tests, \(sample.descriptors) descriptors open, resident \(megabytes(sample.residentBytes))")
        }
        guard let first = samples.first, let last = samples.last else { return }
        #expect(failures == 0, "soak \(way): \(failures) of \(count) tests failed")
        #expect(
            last.descriptors <= first.descriptors + tolerance,
            "soak \(way): descriptors grew from \(first.descriptors) after \(first.tests) tests to \(last.descriptors) after \(last.tests)")
        guard last.tests > first.tests else { return }
        guard let start = first.residentBytes, let end = last.residentBytes else { return }
        let growth = Double(end - start) / Double(last.tests - first.tests) * 10_000 / 1_048_576
        print(
            String(
                format: "soak %@: resident memory grew %.2f MB per 10,000 tests after the first %d (goal: under 2 MB)",
                way, growth, first.tests))
    }

    private static func megabytes(_ bytes: Int?) -> String {
        bytes.map { String(format: "%.1f MB", Double($0) / 1_048_576) } ?? "n/a"
    }
}
