import Foundation
@testable import MockServer
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
        let leaky =
            friends
            .replacingOccurrences(of: "token=<redacted>&user_id=42", with: "token=s3cr3t&user_id=42")
            .replacingOccurrences(
                of: "\"User-Agent\",\n            \"ServiceKit/0.1\"",
                with: "\"Authorization\",\n            \"Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789\"")
        #expect(leaky != friends)
        try workspace.write(leaky, to: "Recordings/friends/friends.json")
        try workspace.write("{\"format\": \"servicereplay-cassette\", \"version\": 4}", to: "Recordings/future.json")
        // When linting the folder by default
        let result = try await workspace.run(["lint"])
        // Then each finding names file, interaction and place, and the summary counts them
        #expect(
            result.stdout == """
                Recordings/friends/friends.json: interaction 0: request header Authorization: looks like a credential (name `Authorization`); \
                if it is not, add "Authorization" to allow in Recordings/.servicereplay.json
                Recordings/friends/friends.json: interaction 0: request query token: looks like a credential (name `token`); \
                if it is not, add "token" to allow in Recordings/.servicereplay.json
                Recordings/friends/friends.json: interaction 1: request header Authorization: looks like a credential (name `Authorization`); \
                if it is not, add "Authorization" to allow in Recordings/.servicereplay.json
                Recordings/future.json: cassette version 4 is newer than this MockServer reads (version 3); update ServiceReplay
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
        // Then the repeat and the three user agents are findings, the latter naming the option that made them secret
        #expect(
            result.stdout == """
                login.json: interaction 0: request header User-Agent: listed as a secret by --redact-header or --redact-field (name `User-Agent`)
                login.json: interaction 1: request header User-Agent: listed as a secret by --redact-header or --redact-field (name `User-Agent`)
                login.json: interaction 2: duplicates interaction 1 (same request under the cassette's match rules, same response); replay never needs it
                login.json: interaction 2: request header User-Agent: listed as a secret by --redact-header or --redact-field (name `User-Agent`)
                1 cassette, 3 interactions, 4 findings

                """)
        #expect(result.status == 1)
    }

    @Test func leftoverRecordings_areFindings_namingTheCassetteAndWhatToDo() async throws {
        // Given a clean cassette with a recording kept aside beside it, as MOCKSERVER_RECORD=all leaves after a failed test
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.copyRecording("login/login.json", to: "Recordings/login/login.json")
        try workspace.copyRecording("login/login.json", to: "Recordings/login/login.json.recording-4242-17")
        // When linting the folder by default, and the cassette by name
        for arguments in [["lint"], ["lint", "Recordings/login/login.json"]] {
            let result = try await workspace.run(arguments)
            // Then the leftover is one finding naming both files and what to do, and the exit status is 1
            #expect(
                result.stdout == """
                    Recordings/login/login.json.recording-4242-17: a leftover recording of Recordings/login/login.json, kept aside by \
                    MOCKSERVER_RECORD=all when its test failed or was stopped; compare it with Recordings/login/login.json, then move it \
                    over that file or delete it
                    1 cassette, 2 interactions, 1 finding

                    """, "\(arguments)")
            #expect(result.status == 1)
        }
    }

    @Test func freshCaptureOfATypicalAPI_withRequestIDsAndAPresignedURL_lintsClean() async throws {
        // Given an upstream answering a presigned S3 URL with AWS's request-ID headers, and a trace header
        let workspace = try Workspace()
        defer { workspace.remove() }
        let target =
            "/bucket/key.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20261126%2Fus-east-1%2Fs3%2Faws4_request"
            + "&X-Amz-Date=20261126T000000Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host"
            + "&X-Amz-Signature=0f3a5c7e9b1d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a"
        let upstreamCassette = Cassette(
            name: "s3",
            interactions: [
                Interaction(
                    request: RecordedRequest(method: "GET", target: target),
                    response: RecordedResponse(
                        status: 200,
                        headers: HTTPHeaders(pairs: [
                            ("x-amzn-RequestId", "Zk9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZkdISUpLTG1ubw"),
                            ("x-amz-request-id", "Q2hlY2tzdW1YYnFBN2Y4ZzlIMGlKMWtMMm0zTjRvNXA2"),
                            ("x-amz-id-2", "Uuag1LuByRx9e6j5Onimru9pO4ZVKnJ2Qz7/C1NPcfTWAtRPfTaOFg=="),
                            ("traceparent", "00-Zk9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFi-Y2RlZkdISUpL-01"),
                            ("Content-Type", "text/plain"),
                        ]), body: .text("hello\n")))
            ])
        try await withMockServer(cassettes: [upstreamCassette], configuration: .init(faults: .none, strict: true)) { upstream in
            // When it is captured through the built recorder
            let capture = try RunningRecorder(
                ["capture", "--upstream", upstream.baseURL!.absoluteString, "--out", "Recordings/s3.json"],
                in: workspace.folder)
            let proxy = try await capture.address(after: "Listening on")
            let http = LoopbackHTTP()
            defer { http.close() }
            #expect(try await http.send("GET", target, to: proxy).status == 200)
            #expect(try await capture.stop(with: SIGTERM).status == 0)
        }
        // Then the signature and credential are redacted, and lint finds nothing
        let saved = try Cassette.load(from: workspace.url("Recordings/s3.json"))
        #expect(saved.interactions.first?.request.target.hasSuffix("&X-Amz-Signature=%3Credacted%3E") == true)
        #expect(saved.interactions.first?.request.target.contains("X-Amz-Credential=%3Credacted%3E&") == true)
        let lint = try await workspace.run(["lint"])
        #expect(lint.stdout == "1 cassette, 1 interaction, 0 findings\n")
        #expect(lint.status == 0)
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
        try workspace.write(
            #"{"format": "servicereplay-cassette", "version": 1, "name": "old", "interactions": [{"request": {"method": "GET", "target": "/"}, "response": {"status": 200, "body": {"json": {"b": 1, "a": 2}}}}]}"#,
            to: "old.json")
        let result = try await workspace.run(["lint", "old.json"])
        #expect(
            result.stdout == """
                old.json: format version 1; it loads and replays as it is, and is written as version 3 when next saved
                1 cassette, 1 interaction, 0 findings

                """)
        #expect(result.status == 0)
    }

    /// A cassette as `MOCKSERVER_RECORD=once` wrote it while its upstream was down: `GET /users` refused.
    static func refusedCassette(origin: String?, recordedAt: Bool) -> String {
        let stamp = recordedAt ? #""recordedAt": "2026-11-21T10:00:00Z", "durationMs": 1, "# : ""
        let originField = origin.map { #""origin": "\#($0)", "# } ?? ""
        return #"{"format": "servicereplay-cassette", "version": 3, "name": "users", \#(originField)"upstream": "http://127.0.0.1:8001", "interactions": ["#
            + #"{"request": {"method": "GET", "target": "/ok"}, "response": {"status": 200}}, "#
            + #"{\#(stamp)"request": {"method": "GET", "target": "/users"}, "failure": {"kind": "refused", "message": "Could not connect to http://127.0.0.1:8001: Connection refused."}}]}"#
    }

    @Test func recordedRefusal_isAFinding_namingTheCassetteInteractionAndTheCommandThatReRecordsIt() async throws {
        // Given a recorded cassette holding a refusal, and the same refusal where it is meant: in a cassette
        // marked hand-written, and in an interaction without recordedAt (which a recording always writes)
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write(Self.refusedCassette(origin: nil, recordedAt: true), to: "Recordings/users.json")
        try workspace.write(Self.refusedCassette(origin: "hand-written", recordedAt: true), to: "Recordings/meant.json")
        try workspace.write(Self.refusedCassette(origin: "recorded", recordedAt: false), to: "Recordings/written.json")
        // When linting
        let result = try await workspace.run(["lint"])
        // Then only the recorded refusal is a finding, naming the file, the interaction and the re-recording
        #expect(
            result.stdout == """
                Recordings/users.json: interaction 1: recorded while the upstream could not be reached (Could not connect to http://127.0.0.1:8001: Connection refused.), so replay resets the connection every time; re-record users with the upstream up: `MOCKSERVER_RECORD=all swift test --filter TEST`, TEST the test that records it (or remove the interaction, or mark the cassette "origin": "hand-written" if the refusal is meant)
                3 cassettes, 6 interactions, 1 finding

                """)
        #expect(result.status == 1)
        #expect(result.stderr == "")
    }
}
