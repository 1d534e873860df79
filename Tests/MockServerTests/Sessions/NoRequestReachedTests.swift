import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
@testable import MockServerTesting
import ServiceReplayShared
import Testing

/// A replaying test whose server received no request, while its cassette holds interactions, fails with a
/// sentence: its client most likely talked to the real API, and would pass for the wrong reason.
@Suite struct NoRequestReachedTests {
    /// A recordings folder holding `api.json`, one interaction.
    static func folder() throws -> URL {
        let folder = try CassetteFixtures.temporaryFolder()
        try Cassette(name: "api", interactions: [.stub("GET", "/a", text: "a")]).save(to: folder.appendingPathComponent("api.json"))
        return folder
    }

    static func says(_ error: any Error) -> Bool {
        let text = "\(error)"
        return text.contains("no request reached the server replaying api (1 interaction)")
            && text.contains("server.sessionConfiguration()") && text.contains("server.launchEnvironment")
            && text.contains("expectsRequests = false")
    }

    /// The issues the trait on `api` in `folder` records for a test running `body`, each taken as known.
    static func issues(ofTraitOn folder: URL, _ body: @escaping @Sendable () async throws -> Void) async -> [Issue] {
        let trait = MockServerTraitTests.trait("api", in: folder)
        let issues = Lock<[Issue]>([])
        await withKnownIssue {
            do { try await MockServerTraitTests.scope(trait, body) } catch { Issue.record(error) }
        } matching: { issue in
            issues.withLock { $0.append(issue) }
            return true
        }
        return issues.withLock { $0 }
    }

    @Test func withMockServer_whoseServerHeardNothing_throwsNamingTheCausesAndTheOptOut() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // WHEN a test's client sends its request elsewhere (here: nowhere)
        await #expect {
            try await TestEnvironment.isolated { try await withMockServer(replaying: "api", in: folder) { _ in } }
        } throws: { Self.says($0) }
    }

    @Test func aTestThatSendsARequest_orOptsOut_passes() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestEnvironment.isolated {
            // A request that reached the server, even one nothing matched, is enough
            try await withMockServer(replaying: "api", in: folder) { server in
                let (_, response) = try await URLSession.shared.data(from: server.baseURL!.appendingPathComponent("a"))
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
            }
            var quiet = CassetteServer.Configuration()
            quiet.expectsRequests = false
            try await withMockServer(replaying: "api", in: folder, configuration: quiet) { _ in }
        }
    }

    @Test func trait_whoseServerHeardNothing_failsTheTestWithTheSentence() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let issues = await Self.issues(ofTraitOn: folder) {}
        #expect(issues.contains { $0.error.map(Self.says) ?? false })
    }

    @Test func trait_onATestFailingAlready_addsNothing() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let issues = await Self.issues(ofTraitOn: folder) { throw MockServerTraitTests.Thrown() }
        // THEN its own failure is the one issue: the sentence would only repeat why it failed
        #expect(issues.map { $0.error is MockServerTraitTests.Thrown } == [true])
    }
}
