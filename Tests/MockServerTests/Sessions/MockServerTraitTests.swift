import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import ServiceReplayShared
@testable import MockServerTesting
import Testing

/// The `.mockServer(...)` trait, used as users use it, and driven by hand where the outcome is a failure.
@Suite struct MockServerTraitTests {
    /// GETs `url` through a session routed to the running test's server.
    static func get(_ url: String) async throws -> (Data, HTTPURLResponse) {
        let server = try #require(CassetteServer.current)
        let session = URLSession(configuration: try server.sessionConfiguration())
        defer { session.finishTasksAndInvalidate() }
        return try await session.httpData(for: URLRequest(url: URL(string: url)!))
    }

    @Test(.ownMockServer("github/users"))
    func testBody_readsItsServer_andReachesItWithFixedURLs() async throws {
        let (_, response) = try await Self.get("https://api.github.com/users/octocat")
        #expect(response.statusCode == 200)
        #expect(CassetteServer.current?.journal.entries.map(\.outcome.kind) == [.matched])
    }

    /// Each case sees only its own request: every case has a server of its own.
    @Test(.ownMockServer("github/users"), arguments: 0..<4)
    func parallelCases_eachGetTheirOwnServer(round: Int) async throws {
        _ = try await Self.get("https://api.github.com/users/octocat")
        #expect(CassetteServer.current?.journal.entries.count == 1)
    }

    @Suite(.ownMockServer("github/users"))
    struct OnASuite {
        @Test func everyTestHasAServer() async throws {
            #expect(CassetteServer.current?.baseURL != nil)
            _ = try await MockServerTraitTests.get("https://api.github.com/users/octocat")
        }

        /// The test's own trait replaces its suite's: one server, on the test's cassette.
        @Test(.ownMockServer("feed/feeds"))
        func aTestsOwnTrait_replacesItsSuitesForThatTest() async throws {
            let (_, feeds) = try await MockServerTraitTests.get("https://api.nice.example/feeds?page=1&pageSize=3")
            #expect(feeds.statusCode == 200)
            #expect(CassetteServer.current?.journal.entries.map(\.outcome.kind) == [.matched])
            // Swift Testing hands the test both traits, the suite's first; only the test's own gives a scope
            let test = try #require(Test.current)
            let traits = test.traits.compactMap { $0 as? MockServerTrait }
            #expect(traits.map(\.cassette) == ["github/users", "feed/feeds"])
            #expect(traits.first?.scopeProvider(for: test, testCase: Test.Case.current) == nil)
            #expect(traits.last?.scopeProvider(for: test, testCase: Test.Case.current) != nil)
        }
    }

    @Test func noServer_outsideTheTrait() {
        #expect(CassetteServer.current == nil)
    }

    @Test func cassetteName_defaultsToTheSuitesAndTheTestName() throws {
        let test = try #require(Test.current)
        #expect(MockServerTrait.cassetteName(for: test) == "MockServerTraitTests/cassetteName_defaultsToTheSuitesAndTheTestName")
    }

    /// A trait for `cassette` in `folder` whose environment is `environment`.
    static func trait(
        _ cassette: String, in folder: URL, upstream: URL? = nil, allowUnused: Bool = true,
        environment: [String: String] = [:]
    ) -> MockServerTrait {
        var trait = MockServerTrait.mockServer(
            cassette, upstream: upstream?.absoluteString, in: folder, faults: .none,
            allowUnusedInteractions: allowUnused)
        trait.environment = environment
        return trait
    }

    /// Runs `body` as the test case the trait scopes, inside this test.
    static func scope(_ trait: MockServerTrait, _ body: @escaping @Sendable () async throws -> Void) async throws {
        try await trait.provideScope(for: try #require(Test.current), testCase: Test.Case.current, performing: body)
    }

    struct Thrown: Error {}

    /// What the trait records for a test points at the test, not into this package: an IDE opens the test.
    @Test func issuesTheTraitRecords_pointAtTheTest() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var cassette = Cassette(name: "old", interactions: [.stub("GET", "/text", text: "old")])
        cassette.recordedAt = Date(timeIntervalSinceNow: -40 * 86_400)
        try cassette.save(to: folder.appendingPathComponent("old.json"))
        let test = try #require(Test.current)
        // GIVEN a test that throws, on a cassette older than MOCKSERVER_MAX_AGE_DAYS allows
        let trait = Self.trait("old", in: folder, environment: ["MOCKSERVER_MAX_AGE_DAYS": "30"])
        let issues = Lock<[Issue]>([])
        await withKnownIssue(isIntermittent: true) {
            do {
                try await Self.scope(trait) { throw Thrown() }
            } catch {
                Issue.record(error, "the trait records the test's error; it does not throw it")
            }
        } matching: { issue in
            issues.withLock { $0.append(issue) }
            return true
        }
        // THEN the thrown error and the age warning are both recorded at the test's own source location
        let recorded = issues.withLock { $0 }
        #expect(recorded.contains { $0.error is Thrown })
        #if compiler(>=6.3)
        #expect(recorded.contains { "\($0)".contains("recorded 40 days ago") })
        #expect(recorded.count == 2)
        #endif
        #expect(
            recorded.allSatisfy { $0.sourceLocation == test.sourceLocation },
            "\(recorded.map { "\($0.sourceLocation.map(String.init(describing:)) ?? "nowhere")" })")
    }

    @Test func strictServer_failsTheTest_withTheNearMiss() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Cassette(name: "users", interactions: [.stub("GET", "/users/octocat", json: ["login": "octocat"])])
            .save(to: folder.appendingPathComponent("users.json"))
        let error = await #expect(throws: MockServerError.self) {
            try await Self.scope(Self.trait("users", in: folder)) {
                _ = try await Self.get("https://api.github.com/users/octocat?tab=repos")
            }
        }
        #expect(error?.description.hasPrefix("1 request was not matched by any recorded interaction:") == true)
        #expect(error?.description.contains("GET /users/octocat?tab=repos") == true)
    }

    @Test func unusedInteractions_failTheTest_whenNotAllowed() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Cassette(name: "users", interactions: [.stub("GET", "/users/octocat", json: ["login": "octocat"])])
            .save(to: folder.appendingPathComponent("users.json"))
        let error = await #expect(throws: MockServerError.self) {
            try await Self.scope(Self.trait("users", in: folder, allowUnused: false)) {}
        }
        #expect(error?.code == .assertionFailed)
        #expect(error?.description.hasPrefix("1 of 1 recorded interaction was never used:\n  ") == true)
        #expect(error?.description.contains("GET /users/octocat") == true)
    }

    @Test func noRecordingsFolder_saysToCreateOneOrSetTheVariable() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Tests/AppTests/UsersTests.swift").path
        var trait = MockServerTrait.mockServer("users", filePath: file)
        trait.environment = [:]
        let error = await #expect(throws: MockServerError.self) {
            try await Self.scope(trait) {}
        }
        #expect(error?.code == .cassetteNotFound)
        #expect(
            error?.description
                == "no Recordings folder at or above \(file); create one (such as Recordings/ next to Package.swift), set MOCKSERVER_RECORDINGS to a folder, or pass the folder with `in:`"
        )
    }

    @Test(arguments: [true, false])
    func virtualClock_whoseTimedAnswersRanInRealTime_failsTheTest_sayingHowToFixIt(timed: Bool) async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Cassette(name: "api", interactions: [.stub("GET", "/a", text: "a")]).save(to: folder.appendingPathComponent("api.json"))
        // GIVEN the trait's virtual clock, and a latency the server gives every request (or no fault)
        var trait = MockServerTrait.mockServer("api", in: folder, faults: timed ? .specs("latency=20ms") : .none, virtualClock: true)
        trait.environment = [:]
        // WHEN the test asks through a plain URLSession, which names no transfer on the clock
        let issues = Lock<[String]>([])
        await withKnownIssue(isIntermittent: true) {
            do { try await Self.scope(trait) { _ = try await Self.get("http://example.com/a") } } catch { Issue.record(error) }
        } matching: { issue in
            issues.withLock { $0.append("\(issue)") }
            return true
        }
        // THEN a timed answer fails the test with the fix; an untimed one changes nothing
        let said = issues.withLock { $0 }
        if !timed {
            #expect(said.isEmpty, "\(said)")
        } else {
            #expect(said.count == 1, "\(said)")
            #expect(
                said.first?.contains(
                    "virtualClock: true, but the server gave 1 timed answer(s) in real time to requests that named no transfer on its clock; give the test's ServiceKit client the clock: WebServiceClient.Configuration(clock: CassetteServer.current?.configuration.clock)"
                ) == true, "\(said)")
        }
    }

    @Test(arguments: [true, false])
    func allMode_replacesTheCassette_onlyWhenTheTestRecordedNoFailure(passes: Bool) async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("things.json")
        try Cassette(name: "things", interactions: [.stub("GET", "/text", text: "old")]).save(to: file)
        let old = try Data(contentsOf: file)
        try await withUpstream { upstream, _ in
            let trait = Self.trait("things", in: folder, upstream: upstream, environment: ["MOCKSERVER_RECORD": "all"])
            let body: @Sendable () async throws -> Void = {
                let server = try #require(CassetteServer.current)
                _ = try await withURLSession(timeout: 30) { session in
                    try await session.httpData(for: URLRequest(url: server.baseURL!.appendingPathComponent("json")))
                }
                if !passes { Issue.record("the test fails") }
            }
            if passes {
                try await Self.scope(trait, body)
            } else {
                await withKnownIssue { try await Self.scope(trait, body) }
            }
        }
        if passes {
            #expect(try Cassette.load(from: file).interactions.map(\.request.target) == ["/json"])
        } else {
            #expect(try Data(contentsOf: file) == old)
        }
    }
}

extension Trait where Self == MockServerTrait {
    /// `.mockServer(cassette)` reading the package's own environment (``TestEnvironment/ownSuite``) instead of
    /// the caller's, so an exported `MOCKSERVER_RECORD` never re-records the bundled cassettes.
    static func ownMockServer(_ cassette: String, filePath: String = #filePath) -> Self {
        var trait = Self.mockServer(cassette, filePath: filePath)
        trait.environment = TestEnvironment.ownSuite
        return trait
    }
}
