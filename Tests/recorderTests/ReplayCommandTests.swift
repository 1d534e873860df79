import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import recorder

/// `recorder replay` run as a user would: the built binary, real HTTP on loopback, Ctrl-C to stop.
@Suite struct ReplayCommandTests {
    private func get(_ url: URL) async throws -> (status: Int, headers: [AnyHashable: Any], body: String) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(from: url)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, http.allHeaderFields, String(decoding: data, as: UTF8.self))
    }

    @Test func replay_servesTheCassettes_printsEachRequest_andExitsZeroOnCtrlC() async throws {
        // Given recorder replay on the bundled GitHub cassette
        let replay = try RunningRecorder(["replay", Workspace.recordings.appendingPathComponent("github").path])
        let base = try await replay.address(after: "Replaying 1 cassette (4 interactions")
        // When a recorded request and an unrecorded one are sent
        let octocat = try await get(base.appendingPathComponent("users/octocat"))
        let missing = try await get(URL(string: "/users?since=0&per_page=4", relativeTo: base)!)
        let run = try await replay.stop()
        // Then the recorded answer comes back, the miss is a 404 naming the difference, and each is printed
        #expect(octocat.status == 200)
        #expect(octocat.body.contains(#""login":"octocat""#))
        #expect(missing.status == 404)
        #expect(missing.body.contains(#"query per_page: recorded \"3\", received \"4\""#))
        #expect(run.status == 0)
        #expect(run.stdout.contains("GET /users/octocat → 200 github-users interaction 2\n"))
        #expect(
            run.stdout.contains(
                "GET /users?since=0&per_page=4 → 404 unmatched; closest github-users interaction 0 (GET /users?since=0&per_page=3): query per_page: recorded \"3\", received \"4\"\n"
            ))
        #expect(run.stdout.hasSuffix("Stopped on SIGINT after 2 requests.\n"))
    }

    @Test func replay_printsTheRequestsItRejectsBeforeAnyCassette_withStatusAndReason() async throws {
        // Given recorder replay on the bundled GitHub cassette
        let replay = try RunningRecorder(["replay", Workspace.recordings.appendingPathComponent("github").path])
        let base = try await replay.address(after: "Replaying 1 cassette (4 interactions")
        // When a client sends a request line that is not HTTP
        let connection = try PlainConnection(port: try #require(base.port))
        defer { connection.disconnect() }
        try connection.write("NOT HTTP AT ALL\r\n\r\n")
        let answer = try await offThePool { try connection.readToEnd() }
        // Then it gets a 400, and the log has a line for it, as for every request
        #expect(answer.hasPrefix("HTTP/1.1 400 "))
        let line = try await replay.line(containing: "rejected")
        #expect(line.hasPrefix("(request not read) → 400 rejected: "))
        #expect(answer.hasSuffix(String(line.dropFirst("(request not read) → 400 rejected: ".count)) + "\n"))
        let run = try await replay.stop()
        #expect(run.status == 0)
    }

    @Test func quickStart_theReadmePrintsTheLineThatReplayOfTheBundledRecordingsPrints() async throws {
        // Given the README's quick start, `recorder replay` with no cassettes named, run in the repository
        let replay = try RunningRecorder(["replay"], in: Workspace.repository)
        let printed = try await replay.line(containing: "Replaying ")
        _ = try await replay.stop()
        // Then the README and the recorder article show the same counts (the load time differs from run to run)
        let counts = try #require(printed.range(of: ", loaded in ").map { String(printed[..<$0.lowerBound]) })
        for file in ["README.md", "Sources/MockServer/MockServer.docc/RecorderCLI.md"] {
            let text = try String(contentsOf: Workspace.repository.appendingPathComponent(file), encoding: .utf8)
            let shown = text.split(separator: "\n").filter { $0.hasPrefix("Replaying ") && $0.contains(" cassettes (") }
            #expect(!shown.isEmpty, "\(file) shows no replay line")
            for line in shown { #expect(line.hasPrefix(counts), "\(file): \(line); recorder: \(printed)") }
        }
    }

    @Test func replay_underAFault_printsThePlan_andTheFaultPerRequest_exitsZeroOnSIGTERM() async throws {
        let replay = try RunningRecorder([
            "replay", Workspace.recordings.appendingPathComponent("feed").path,
            "--fault", "status=503,when=first:1", "--seed", "9",
        ])
        let base = try await replay.address(after: "Replaying")
        let url = URL(string: "/feeds?page=1&pageSize=3", relativeTo: base)!
        let first = try await get(url)
        let second = try await get(url)
        let run = try await replay.stop(with: SIGTERM)
        #expect(first.status == 503)
        #expect(first.headers["Retry-After"] as? String == "1")
        #expect(second.status == 200)
        #expect(run.status == 0)
        #expect(run.stdout.contains("Faults: seed=9: status=503,when=first:1\n"))
        #expect(run.stdout.contains("GET /feeds?page=1&pageSize=3 → fault rule 1 'status=503,when=first:1' on match 1 (seed 9) (503)\n"))
        #expect(run.stdout.contains("Stopped on SIGTERM after 2 requests."))
    }

    /// Sends `request` on a fresh raw connection to `base`, as curl would, and returns all that comes back
    /// until the server closes (the request asks it to).
    private func exchange(_ request: String, with base: URL) async throws -> String {
        let port = try #require(base.port)
        return try await offThePool {
            let connection = try PlainConnection(port: port)
            try connection.write(request)
            return try connection.readToEnd()
        }
    }

    @Test func replay_serviceErrorFault_answersWithTheCassettesTemplate() async throws {
        // Given recorder replay on the GitHub cassette with a service-error fault naming one of its templates
        let replay = try RunningRecorder([
            "replay", Workspace.recordings.appendingPathComponent("github/users.json").path,
            "--fault", "service-error=not_found",
        ])
        let base = try await replay.address(after: "Replaying 1 cassette (4 interactions")
        // When a recorded request is sent
        let answer = try await exchange("GET /users/octocat HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", with: base)
        let run = try await replay.stop()
        // Then the template answers, status, headers and body, instead of the recorded 200
        #expect(answer.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        #expect(answer.contains("\r\nX-GitHub-Media-Type: github.v3; format=json\r\n"))
        #expect(
            answer.hasSuffix("\r\n\r\n" + #"{"documentation_url":"https://docs.github.com/rest/users/users#get-a-user","message":"Not Found","status":"404"}"#))
        #expect(run.status == 0)
        #expect(run.stdout.contains("GET /users/octocat → fault rule 1 'service-error=not_found' on match 1 (seed 1) (404)\n"))
    }

    @Test func replay_errorEventFault_sendsTheTemplateAfterTheFirstEvent() async throws {
        // Given recorder replay on the chat cassette with an error event after the first part
        let replay = try RunningRecorder([
            "replay", Workspace.recordings.appendingPathComponent("chat/completions.json").path,
            "--fault", "error-event=rate_limit_exceeded,after=1", "--stream-timing", "instant",
        ])
        let base = try await replay.address(after: "Replaying 1 cassette")
        // When the recorded streaming request is sent
        let body = #"{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Say hello."}],"stream":true}"#
        let answer = try await exchange(
            "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body, with: base)
        let run = try await replay.stop()
        // Then the stream holds the first event, then the template as an event, and nothing recorded after it
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
        let first = try #require(answer.range(of: #"data: {"id":"chatcmpl-9xK2mQ7a1""#))
        let error = try #require(answer.range(of: #"data: {"error":{"code":"rate_limit_exceeded","message":"Rate limit reached for gpt-4o-mini"#))
        #expect(first.upperBound < error.lowerBound)
        #expect(!answer.contains(#""content":"Hello""#))
        #expect(!answer.contains("[DONE]"))
        #expect(run.status == 0)
        #expect(run.stdout.contains("POST /v1/chat/completions → fault rule 1 'error-event=rate_limit_exceeded,after=1' on match 1 (seed 1) (200)\n"))
    }

    @Test func replay_webSocketDropFault_endsTheConversationAfterItsFirstMessage() async throws {
        // Given recorder replay on a cassette whose conversation the server opens with three messages, under ws-drop=1
        let workspace = try Workspace()
        let cassette = try workspace.write(
            """
            {"format": "servicereplay-cassette", "version": 3, "name": "ticks", "interactions": [
              {"request": {"method": "GET", "target": "/ticks"},
               "webSocket": {"response": {"status": 101},
                 "messages": [{"from": "server", "offsetMs": 5, "text": "a"}, {"from": "server", "offsetMs": 10, "text": "b"},
                              {"from": "server", "offsetMs": 15, "text": "c"}],
                 "close": {"by": "server", "code": 1000, "offsetMs": 20}}}
            ]}
            """, to: "ticks.json")
        let replay = try RunningRecorder(["replay", cassette.path, "--fault", "ws-drop=1", "--stream-timing", "instant"])
        let base = try await replay.address(after: "Replaying 1 cassette")
        // When a client upgrades
        let answer = try await exchange(
            "GET /ticks HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", with: base)
        let run = try await replay.stop()
        // Then the 101, one text frame "a" (0x81 0x01 'a', the first byte no UTF-8), and the connection's end, no close frame
        #expect(answer.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
        #expect(answer.hasSuffix("\r\n\r\n\u{FFFD}\u{01}a"))
        #expect(run.status == 0)
        #expect(run.stdout.contains("GET /ticks → fault rule 1 'ws-drop=1' on match 1 (seed 1) (101)\n"))
    }

    @Test func replay_printsALine_whenAConversationMeetsAMessageItsRecordingDoesNotHold() async throws {
        // Given recorder replay on a conversation whose client says "hi"
        let workspace = try Workspace()
        let cassette = try workspace.write(
            """
            {"format": "servicereplay-cassette", "version": 3, "name": "chat", "interactions": [
              {"request": {"method": "GET", "target": "/chat"},
               "webSocket": {"response": {"status": 101}, "messages": [{"from": "client", "text": "hi"}, {"from": "server", "text": "hello"}]}}
            ]}
            """, to: "chat.json")
        let replay = try RunningRecorder(["replay", cassette.path])
        let base = try await replay.address(after: "Replaying 1 cassette")
        // When a client upgrades and says "ho" (one masked text frame, its mask all zeros)
        let port = try #require(base.port)
        let answer = try await offThePool {
            let connection = try PlainConnection(port: port)
            try connection.write(
                "GET /chat HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            try connection.write(bytes: [0x81, 0x82, 0, 0, 0, 0] + Array("ho".utf8))
            return try connection.readToEnd()
        }
        let run = try await replay.stop()
        // Then the client got the close 1008 with the difference, and the terminal a line saying so after the upgrade's
        #expect(answer.contains(#"message 0: recorded "hi", received "ho""#))
        #expect(run.stdout.contains("GET /chat → 101 chat interaction 0\n"))
        #expect(
            run.stdout.contains(
                #"GET /chat: message 0: recorded "hi", received "ho" (first difference at byte 1) → closed 1008 (WebSocket, chat interaction 0)"#))
    }

    @Test func strictReplay_exitsOne_listingTheUnmatchedRequest() async throws {
        let replay = try RunningRecorder(["replay", Workspace.recordings.appendingPathComponent("feed/feeds.json").path, "--strict"])
        let base = try await replay.address(after: "Replaying")
        _ = try await get(base.appendingPathComponent("nothing"))
        let run = try await replay.stop()
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("recorder: 1 request was not matched by any recorded interaction:\n\nNo recorded interaction matches GET /nothing.\n"))
    }

    @Test(
        arguments: [
            (
                ["replay", "--fault", "explode"], 2,
                "recorder: invalid fault spec 'explode': 'explode' is not a fault kind; use one of refuse, reset, empty, truncate, malformed-chunk, garbage, stall, latency, throttle, status, corrupt-body, empty-body, content-type, service-error, event-latency, error-event, graphql-error, ws-drop, ws-close, ws-malformed, ws-stall, ws-delay\n"
            ),
            (["replay", "--fault", "reset", "--faults", "plan.json"], 2, "recorder: give fault rules with --fault or with --faults, not both\n"),
            (["replay", "--seed", "x"], 2, "recorder: --seed 'x' is not a whole number from 0 to 2^64-1\n"),
            (["replay", "--stream-timing", "fast"], 2, "recorder: --stream-timing 'fast' is not recorded, instant or a speed such as 2x\n"),
            (["replay", "--port", "70000"], 2, "recorder: --port '70000' is not a whole number from 0 to 65535\n"),
            (["replay", "--journal", "0"], 2, "recorder: --journal '0' is not a whole number from 1 to 100000\n"),
            (
                ["replay", "--control-token", ""], 2,
                "recorder: --control-token is empty; give a token of at least one character, or leave the option out\n"
            ),
            (["replay", "no/such/folder"], 1, "recorder: no/such/folder: no such file or folder\n"),
            (
                ["replay", "github", "--allow-host", "http://mockserver"], 2,
                "recorder: the allowed host 'http://mockserver' is not a host name or IP address; give a name such as mockserver or 10.0.2.2 (IPv6 in brackets), without scheme, port or path, or * to allow any name\n"
            ),
            (
                ["replay", "github/users.json", "--fault", "service-error=nope"], 2,
                "recorder: rule 1 ('service-error=nope'): no cassette served has an error template named 'nope'; the templates there are: not_found, rate_limit, rate_limit_429, secondary_rate_limit\n"
            ),
            (
                ["replay", "chat", "--fault", "status=503,when=first:1", "--fault", "error-event=nope,after=2"], 2,
                "recorder: rule 2 ('error-event=nope,after=2'): no cassette served has an error template named 'nope'; the templates there are: invalid_api_key, rate_limit_exceeded, server_error\n"
            ),
        ] as [([String], Int32, String)])
    func badReplayCommandLines_failWithOneSentence(arguments: [String], status: Int32, message: String) async throws {
        let run = try await runRecorder(arguments, in: Workspace.recordings)
        #expect(run.status == status)
        #expect(run.stderr == message)
    }

    @Test func replay_printsTheControlAPI_whichGivesTheJournal_andWithATokenOnlyToItsBearer() async throws {
        // Given recorder replay on the bundled GitHub cassette with a control token
        let replay = try RunningRecorder(["replay", Workspace.recordings.appendingPathComponent("github").path, "--control-token", "s3"])
        let base = try await replay.address(after: "Replaying 1 cassette (4 interactions")
        let printed = try await replay.line(containing: "Control API: ")
        let page = try await replay.line(containing: "Journal page: ")

        // When a recorded request is sent, then the journal is asked for without and with the token
        _ = try await get(base.appendingPathComponent("users/octocat"))
        let control = try #require(URL(string: "/__mockserver/journal", relativeTo: base))
        let refused = try await get(control)
        var request = URLRequest(url: control)
        request.setValue("Bearer s3", forHTTPHeaderField: "Authorization")
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        let run = try await replay.stop()

        // Then the address printed is the server's, the journal holds the one request, and only the bearer read it
        #expect(
            printed
                == "Control API: \(base.absoluteString)/__mockserver/ (journal, journal/events, journal.har, unmatched, unused, faults, cassettes, reset)")
        #expect(page == "Journal page: \(base.absoluteString)/__mockserver/ (open it in a browser)")
        #expect(refused.status == 403)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let journal = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entries = journal["entries"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["target"] as? String } == ["/users/octocat"])
        #expect(run.stdout.hasSuffix("Stopped on SIGINT after 1 request.\n"))
    }

    @Test func replay_answersOnlyLoopbackNamesAndTheAllowedOnes_printingEachRefusal() async throws {
        // Given recorder replay on the bundled GitHub cassette, allowed to answer to mockserver
        let replay = try RunningRecorder(["replay", Workspace.recordings.appendingPathComponent("github/users.json").path, "--allow-host", "mockserver"])
        let base = try await replay.address(after: "Replaying 1 cassette (4 interactions")
        let port = try #require(base.port)
        // When a page that rebound its name sends a request, then a client of the allowed name and one of localhost
        let rebound = try await exchange("GET /users/octocat HTTP/1.1\r\nHost: attacker.example:\(port)\r\nConnection: close\r\n\r\n", with: base)
        let allowed = try await exchange("GET /users/octocat HTTP/1.1\r\nHost: mockserver:8080\r\nConnection: close\r\n\r\n", with: base)
        let local = try await exchange("GET /users/octocat HTTP/1.1\r\nHost: localhost:\(port)\r\nConnection: close\r\n\r\n", with: base)
        let line = try await replay.line(containing: "421 rejected")
        let run = try await replay.stop()
        // Then only the first is refused, with the sentence naming the option, and the log says so
        #expect(rebound.hasPrefix("HTTP/1.1 421 Misdirected Request\r\n"))
        #expect(rebound.contains("pass --allow-host attacker.example to recorder"))
        #expect(!rebound.contains("octocat"))
        #expect(allowed.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(local.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(line.hasPrefix("GET /users/octocat → 421 rejected: this server answers only requests addressed to a loopback name"))
        #expect(run.stdout.hasSuffix("Stopped on SIGINT after 2 requests.\n"), "the refused request is in no journal")
    }

    @Test func replay_switchesCassettesByName_amongTheFolderItServes() async throws {
        // Given recorder replay on the GitHub folder
        let replay = try RunningRecorder(["replay", Workspace.recordings.appendingPathComponent("github").path])
        let base = try await replay.address(after: "Replaying 1 cassette (4 interactions")
        let control = try #require(URL(string: "/__mockserver/cassettes", relativeTo: base))
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        func put(_ body: String) async throws -> (Int?, [String: Any]?) {
            var request = URLRequest(url: control)
            request.httpMethod = "PUT"
            request.httpBody = Data(body.utf8)
            let (data, response) = try await session.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode, try? JSONSerialization.jsonObject(with: data) as? [String: Any])
        }

        // When the list is asked for, an unknown name put, then the folder's one cassette put again
        let (listData, _) = try await session.data(from: control.absoluteURL)
        let (unknown, refusal) = try await put(#"{"cassettes": ["nope"]}"#)
        let (switched, list) = try await put(#"{"cassettes": ["users"]}"#)
        _ = try await replay.stop()

        // Then the folder's names are listed (served and available in one spelling) and taken, and an unknown one
        // is refused with one sentence
        let before = try #require(try JSONSerialization.jsonObject(with: listData) as? [String: Any])
        #expect(before["served"] as? [String] == ["users"])
        #expect(before["available"] as? [String] == ["users"])
        #expect(unknown == 400)
        #expect((refusal?["error"] as? String)?.hasPrefix("the cassettes served stay as they were: ") == true, "\(String(describing: refusal))")
        #expect(switched == 200)
        #expect(list?["served"] as? [String] == ["users"])
    }

    @Test(
        arguments: [
            ([], [:], nil), ([], ["MOCKSERVER_CONTROL_TOKEN": "env"], "env"),
            (["--control-token", "flag"], ["MOCKSERVER_CONTROL_TOKEN": "env"], "flag"),
        ] as [([String], [String: String], String?)])
    func controlToken_isTheFlags_elseTheEnvironments(arguments: [String], environment: [String: String], token: String?) throws {
        let parsed = try Arguments(arguments, options: ["control-token"], flags: [], command: "replay")
        #expect(try ReplayCommand.controlToken(parsed, environment: environment) == token)
    }

    @Test func anEmptyControlTokenInTheEnvironment_isAUsageError() throws {
        let parsed = try Arguments([], options: ["control-token"], flags: [], command: "replay")
        #expect(throws: RecorderError.usage("MOCKSERVER_CONTROL_TOKEN is set but empty; give it a token of at least one character, or unset it")) {
            try ReplayCommand.controlToken(parsed, environment: ["MOCKSERVER_CONTROL_TOKEN": ""])
        }
    }
}
