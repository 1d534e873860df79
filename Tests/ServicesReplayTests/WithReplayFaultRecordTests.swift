import Foundation
@testable import MockServer
import ServiceKit
import ExampleServices
import ServiceReplayTesting
import Testing

/// `withReplay` tests sharing one cassette, a fault test among them, recorded under `once` from an empty folder
/// from an upstream on loopback that answers as GitHub did, then replayed offline.
@Suite struct WithReplayFaultRecordTests {
    /// The two tests of `github/users`, run in parallel: a profile, and the same profile under a 503.
    static func runTests(folder: URL, upstream: String) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await withReplay("github/users", in: folder, upstream: upstream, configuration: .init(faults: .none)) { replay in
                    let profile = try await replay.client.send(GitHubUserService(login: "octocat"))
                    #expect(profile.user.login == "octocat")
                }
            }
            group.addTask {
                let plan = try FaultPlan.parse(specs: "status=503")
                try await withReplay("github/users", in: folder, upstream: upstream, configuration: .init(faults: .plan(plan))) { replay in
                    let error = await #expect(throws: WebServiceError.self) {
                        try await replay.client.send(GitHubUserService(login: "octocat"))
                    }
                    guard case .service(.httpStatus(let status, _))? = error?.reason else {
                        Issue.record("expected an HTTP status error, got \(String(describing: error))")
                        return
                    }
                    #expect(status == 503)
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func onceMode_aFaultTestAmongThem_recordsFromAnEmptyFolder_thenReplaysOffline() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("withreplay-faults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withMockServer(cassettes: [try Recordings.cassette("github/users")], configuration: .init(faults: .none)) { upstream in
            try await TestEnvironment.$override.withValue(["MOCKSERVER_RECORD": "once"]) {
                try await Self.runTests(folder: folder, upstream: upstream.baseURL!.absoluteString)
            }
            #expect(upstream.journal.entries.map(\.request.path) == ["/users/octocat"])
        }
        #expect(try Cassette.load(from: folder.appendingPathComponent("github/users.json")).interactions.count == 1)
        try await TestEnvironment.$override.withValue([:]) {
            try await Self.runTests(folder: folder, upstream: "http://127.0.0.1:1")
        }
    }
}
