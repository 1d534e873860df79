import Foundation
import ServiceReplayShared
@testable import MockServer
import ServiceKit
import ExampleServices
import ServiceReplayTesting
import Testing

/// `withReplay` under `MOCKSERVER_RECORD=all`, as an app's Swift Testing test uses it: the bundled GitHub
/// cassette is re-recorded, into a folder of the test's own, from an upstream on loopback that answers as
/// GitHub did.
@Suite struct WithReplayRecordTests {
    /// Re-records `github/users` in a copy of the bundled cassette, with a test body that `fails` or not
    /// without throwing; returns the old file's bytes, the file, and what the failing test's issues said.
    static func rerecord(fails: Bool) async throws -> (old: Data, file: URL, messages: [String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("withreplay-\(UUID().uuidString)")
        let file = folder.appendingPathComponent("github/users.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        var bundled = try Recordings.cassette("github/users")
        bundled.note = "written by hand"
        try bundled.save(to: file)
        let old = try Data(contentsOf: file)
        let messages = Lock<[String]>([])
        try await withMockServer(cassettes: [try Recordings.cassette("github/users")], configuration: .init(faults: .none)) { upstream in
            try await TestEnvironment.$override.withValue(["MOCKSERVER_RECORD": "all"]) {
                let test: () async throws -> Void = {
                    try await withReplay(
                        "github/users", in: folder, upstream: upstream.baseURL!.absoluteString,
                        configuration: .init(faults: .none)
                    ) { replay in
                        let profile = try await replay.client.send(GitHubUserService(login: "octocat"))
                        #expect(profile.user.login == "octocat")
                        if fails { Issue.record("the test fails without throwing") }
                    }
                }
                if fails {
                    try await withKnownIssue {
                        try await test()
                    } matching: { issue in
                        let message = (issue.error as? MockServerError)?.description ?? "\(issue.comments)"
                        messages.withLock { $0.append(message) }
                        return true
                    }
                } else {
                    try await test()
                }
            }
        }
        return (old, file, messages.withLock { $0 })
    }

    @Test func aFailedExpect_leavesTheOldCassette_andSaysWhereTheNewRecordingIs() async throws {
        let (old, file, messages) = try await Self.rerecord(fails: true)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent().deletingLastPathComponent()) }
        #expect(try Data(contentsOf: file) == old)
        let kept = try #require(
            try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
                .first { $0 != "users.json" })
        let pending = file.deletingLastPathComponent().appendingPathComponent(kept).path
        #expect(messages.count == 2)
        #expect(messages.last == "the test failed, so MOCKSERVER_RECORD=all left \(file.path) as it was; the new recording is in \(pending)")
    }

    @Test func aPassingTest_replacesTheCassette_keepingItsHandWrittenParts() async throws {
        let (_, file, messages) = try await Self.rerecord(fails: false)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent().deletingLastPathComponent()) }
        #expect(messages.isEmpty)
        let bundled = try Recordings.cassette("github/users")
        let new = try Cassette.load(from: file)
        #expect(new.interactions.map(\.request.target) == ["/users/octocat"])
        #expect(new.note == "written by hand")
        #expect(new.errorTemplates == bundled.errorTemplates)
        #expect(new.matching == bundled.matching)
        #expect(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == ["users.json"])
    }
}
