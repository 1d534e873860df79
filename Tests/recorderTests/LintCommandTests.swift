import Foundation
import Testing

@Suite struct LintCommandTests {
    @Test func recordings_lintClean_fromTheRepository_withNoArguments() async throws {
        // Given the repository as the working directory
        // When linting with the default path
        let result = try await runRecorder(["lint"], in: Workspace.repository)
        // Then every cassette in Recordings/ is clean
        let files = try FileManager.default.subpathsOfDirectory(atPath: Workspace.recordings.path).filter { $0.hasSuffix(".json") }
        #expect(result.stdout.hasPrefix("\(files.count) cassettes, "))
        #expect(result.stdout.hasSuffix(" interactions, 0 findings\n"))
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(result.stderr == "")
        #expect(result.status == 0)
    }

    @Test func findings_areOneLineEach_withASummary_andExitOne() async throws {
        // Given a copy of two recordings, one made leaky and duplicated, and a broken file
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.copyRecording("github/users.json", to: "Recordings/github/users.json")
        let friends = try String(contentsOf: Workspace.recordings.appendingPathComponent("friends/friends.json"), encoding: .utf8)
        let leaky = friends
            .replacingOccurrences(of: "token=<redacted>&user_id=42", with: "token=s3cr3t&user_id=42")
            .replacingOccurrences(of: "\"User-Agent\",\n            \"ServiceKit/0.1\"",
                                  with: "\"Authorization\",\n            \"Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789\"")
        #expect(leaky != friends)
        try workspace.write(leaky, to: "Recordings/friends/friends.json")
        try workspace.write("{\"format\": \"servicereplay-cassette\", \"version\": 3}", to: "Recordings/future.json")
        // When linting the folder by default
        let result = try await workspace.run(["lint"])
        // Then each finding names file, interaction and place, and the summary counts them
        #expect(result.stdout == """
            Recordings/friends/friends.json: interaction 0: request header Authorization: credential header is not redacted
            Recordings/friends/friends.json: interaction 0: request query token: secret field is not redacted
            Recordings/friends/friends.json: interaction 1: request header Authorization: credential header is not redacted
            Recordings/future.json: cassette version 3 is newer than this MockServer reads (version 2); update ServiceReplay
            3 cassettes, 6 interactions, 4 findings

            """)
        #expect(result.status == 1)
        #expect(result.stderr == "")
    }

    @Test func duplicates_andExtraRules_areReported_forNamedFiles() async throws {
        // Given the log-in cassette with its first interaction repeated at the end
        let workspace = try Workspace()
        defer { workspace.remove() }
        let login = try String(contentsOf: Workspace.recordings.appendingPathComponent("login/login.json"), encoding: .utf8)
        let json = try JSONSerialization.jsonObject(with: Data(login.utf8)) as! [String: Any]
        var interactions = json["interactions"] as! [Any]
        interactions.append(interactions[1])
        var copy = json
        copy["interactions"] = interactions
        try JSONSerialization.data(withJSONObject: copy).write(to: workspace.url("login.json"))
        // When linting that file, also treating User-Agent as a credential
        let result = try await workspace.run(["lint", "login.json", "--redact-header", "User-Agent"])
        // Then the repeat and the three user agents are findings
        #expect(result.stdout == """
            login.json: interaction 0: request header User-Agent: credential header is not redacted
            login.json: interaction 1: request header User-Agent: credential header is not redacted
            login.json: interaction 2: duplicates interaction 1 (same request under the cassette's match rules, same response); replay never needs it
            login.json: interaction 2: request header User-Agent: credential header is not redacted
            1 cassette, 3 interactions, 4 findings

            """)
        #expect(result.status == 1)
    }

    @Test func noRecordingsFolder_andNoPaths_isAFailure() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let result = try await workspace.run(["lint"])
        #expect(result.stderr == "recorder: there is no Recordings/ folder here; name the cassettes or folders to lint\n")
        #expect(result.status == 1)
    }

    @Test func olderFormatVersion_isNamed_withoutBeingAFinding() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write(#"{"format": "servicereplay-cassette", "version": 1, "name": "old", "interactions": [{"request": {"method": "GET", "target": "/"}, "response": {"status": 200, "body": {"json": {"b": 1, "a": 2}}}}]}"#,
                            to: "old.json")
        let result = try await workspace.run(["lint", "old.json"])
        #expect(result.stdout == """
            old.json: format version 1; it loads and replays as it is, and is written as version 2 when next saved
            1 cassette, 1 interaction, 0 findings

            """)
        #expect(result.status == 0)
    }
}
