import Foundation
@testable import MockServer
import Testing

@Suite struct RedactCommandTests {
    /// The friends cassette with a live token in the first query, a bearer token and a JSON password.
    private static func leakyFriends() throws -> String {
        let friends = try String(contentsOf: Workspace.recordings.appendingPathComponent("friends/friends.json"), encoding: .utf8)
        let leaky =
            friends
            .replacingOccurrences(of: "token=<redacted>&user_id=42", with: "token=s3cr3t&user_id=42")
            .replacingOccurrences(of: "\"User-Agent\",\n            \"ServiceKit/0.1\"", with: "\"Authorization\",\n            \"Bearer abc\"")
            .replacingOccurrences(of: "\"name\" : \"Ann Lee\"", with: "\"name\" : \"Ann Lee\",\n              \"password\" : \"hunter2\"")
        #expect(leaky != friends)
        return leaky
    }

    @Test func leakyCassette_isRewrittenOnce_cleanOnesAreLeftAlone() async throws {
        // Given a leaky cassette and a clean one in a folder
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write(try Self.leakyFriends(), to: "cassettes/friends.json")
        try workspace.copyRecording("login/login.json", to: "cassettes/login.json")
        let clean = try workspace.contents("cassettes/login.json")
        // When redacting the folder
        let first = try await workspace.run(["redact", "cassettes"])
        // Then each file gets a line, the leaky one is rewritten and lints clean, the clean one is untouched
        #expect(
            first.stdout == """
                cassettes/friends.json: redacted 2 headers, 1 query parameter, 1 body field
                cassettes/login.json: already clean

                """)
        #expect(first.status == 0)
        #expect(try workspace.contents("cassettes/login.json") == clean)
        #expect(try await workspace.run(["lint", "cassettes"]).status == 0)
        let cassette = try Cassette.load(from: workspace.url("cassettes/friends.json"))
        #expect(cassette.interactions[0].request.target == "/friends?token=%3Credacted%3E&user_id=42")
        #expect(cassette.encoded() == (try workspace.contents("cassettes/friends.json")))
        // And a second run changes nothing
        let redacted = try workspace.contents("cassettes/friends.json")
        let second = try await workspace.run(["redact", "cassettes/friends.json", "cassettes/login.json"])
        #expect(second.stdout == "cassettes/friends.json: already clean\ncassettes/login.json: already clean\n")
        #expect(try workspace.contents("cassettes/friends.json") == redacted)
    }

    @Test func extraNames_areRedactedToo() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.copyRecording("login/login.json", to: "login.json")
        let result = try await workspace.run(["redact", "login.json", "--redact-header", "User-Agent", "--redact-field=username"])
        #expect(result.stdout == "login.json: redacted 2 headers, 2 body fields\n")
        let cassette = try Cassette.load(from: workspace.url("login.json"))
        #expect(cassette.interactions[0].request.body == .text("username=<redacted>&password=<redacted>"))
    }

    @Test func unloadableAndMissingFiles_areReported_untouched_andTheRestIsStillDone() async throws {
        // Given a broken cassette, a missing path and a leaky cassette
        let workspace = try Workspace()
        defer { workspace.remove() }
        let broken =
            "{\"format\": \"servicereplay-cassette\", \"version\": 1, \"interactions\": [{\"request\": {\"method\": \"GET\", \"target\": \"/?token=x\"}}]}"
        try workspace.write(broken, to: "broken.json")
        try workspace.write(try Self.leakyFriends(), to: "friends.json")
        // When redacting all three
        let result = try await workspace.run(["redact", "broken.json", "gone.json", "friends.json"])
        // Then each problem is one sentence, the broken file keeps its bytes, the leaky one is fixed, status 1
        #expect(
            result.stderr == """
                recorder: broken.json: interaction 0: expected exactly one of "response", "failure" or "webSocket"
                recorder: gone.json: no such file or folder

                """)
        #expect(result.stdout == "friends.json: redacted 2 headers, 1 query parameter, 1 body field\n")
        #expect(result.status == 1)
        #expect(try workspace.contents("broken.json") == Data(broken.utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.folder.path).sorted() == ["broken.json", "friends.json"])
    }
}
