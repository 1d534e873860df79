import Foundation
@testable import MockServer
import Testing

/// `recorder capture` run as a user would: the built binary in front of an upstream on loopback (a MockServer
/// serving cassettes), stopped with a signal, its cassette then served by `recorder replay`.
@Suite struct CaptureCommandTests {
    /// One request to send, as a cassette's interaction describes it, with live values for its placeholders.
    struct Outgoing: Sendable {
        let method: String
        let target: String
        let headers: [(String, String)]
        let body: Data
    }

    /// Every interaction of the bundled recordings as a live request: redacted values get real-looking ones.
    private static func outgoingRequests(from cassettes: [Cassette]) -> [Outgoing] {
        // WebSocket conversations are captured by a WebSocket client (WebSocketCaptureCommandTests), not sent as plain GETs.
        cassettes.flatMap(\.interactions).filter { $0.webSocket == nil }.map { interaction in
            let request = interaction.request
            let live = { (text: String) in text.replacingOccurrences(of: Cassette.redactionPlaceholder, with: "live-secret-4711") }
            return Outgoing(
                method: request.method, target: live(request.target),
                headers: request.headers.lines.map { ($0.name, live($0.value)) },
                body: { if case .text(let text) = request.body.form { Data(live(text).utf8) } else { request.body.data } }())
        }
    }

    private func send(_ requests: [Outgoing], to base: URL) async throws -> [SeenResponse] {
        let http = LoopbackHTTP()
        defer { http.close() }
        var responses: [SeenResponse] = []
        for request in requests {
            responses.append(try await http.send(request.method, request.target, to: base, headers: request.headers, body: request.body))
        }
        return responses
    }

    @Test func capturedThenReplayed_givesTheSameResponses_responseByResponse() async throws {
        // Given an upstream serving every bundled recording, and capture in front of it
        let workspace = try Workspace()
        defer { workspace.remove() }
        let cassettes = try Cassette.loadAll(from: Workspace.recordings)
        let requests = Self.outgoingRequests(from: cassettes)
        try await withMockServer(cassettes: cassettes, configuration: .init(faults: .none, strict: true)) { upstream in
            let capture = try RunningRecorder(
                ["capture", "--upstream", upstream.baseURL!.absoluteString, "--out", "Recordings/all.json"],
                in: workspace.folder)
            let proxy = try await capture.address(after: "Listening on")
            // When every recorded request is sent through it, and it is stopped with SIGTERM
            let captured = try await send(requests, to: proxy)
            let run = try await capture.stop(with: SIGTERM)
            // Then it exits 0 having printed one line per exchange and a summary, and the file is complete
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr == "")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "Recording \(upstream.baseURL!.absoluteString) into Recordings/all.json (a new cassette)")
            #expect(lines.filter { $0.contains(" → ") }.count == requests.count)
            // (chat/completions.json comes first with 1 interaction, then feeds.json with 3; the live token is
            // printed redacted)
            #expect(lines.contains { $0.hasPrefix("GET /friends?token=%3Credacted%3E&user_id=42 → 200, ") && $0.hasSuffix(" bytes, interaction 4") })
            #expect(lines.last == "Stopped on SIGTERM: \(requests.count) exchanges recorded; Recordings/all.json holds \(requests.count) interactions.")
            let saved = try Cassette.load(from: workspace.url("Recordings/all.json"))
            #expect(saved.interactions.count == requests.count)
            #expect(!String(decoding: try workspace.contents("Recordings/all.json"), as: UTF8.self).contains("live-secret-4711"))

            // When the captured cassette is replayed and the same requests are sent again
            let replay = try RunningRecorder(["replay", "Recordings/all.json", "--strict"], in: workspace.folder)
            let replayBase = try await replay.address(after: "Replaying")
            let replayed = try await send(requests, to: replayBase)
            let replayRun = try await replay.stop()
            // Then every response is the captured one: status, headers, body bytes
            #expect(replayRun.status == 0, "\(replayRun.stderr)")
            #expect(replayed.count == captured.count)
            for (index, (first, second)) in zip(captured, replayed).enumerated() {
                #expect(first.exchangeOnly == second.exchangeOnly, "request \(index): \(requests[index].method) \(requests[index].target)")
            }
            #expect(Set(captured.map(\.status)) == [200, 201, 400, 401, 404])
        }
    }

    @Test func liveCredentials_neverReachTheDisk_andTheReplayStillMatchesTheirRequests() async throws {
        // Given an upstream answering GET /me (any access_token) with a session cookie of its own
        let workspace = try Workspace()
        defer { workspace.remove() }
        let me = Interaction.stub(
            "GET", "/me?access_token=\(Cassette.redactionPlaceholder)&v=2&sid=\(Cassette.redactionPlaceholder)", json: ["login": "ann"],
            headers: ["Set-Cookie": "session=upstream-session-secret-3; Path=/; HttpOnly"])
        try await withMockServer(cassettes: [Cassette(name: "me", interactions: [me])], configuration: .init(faults: .none, strict: true)) { upstream in
            // When a request with a live Authorization header, cookie and access_token, and a field and a header
            // named to capture as secret, goes through it
            let capture = try RunningRecorder(
                ["capture", "--upstream", upstream.baseURL!.absoluteString, "--redact-field", "sid", "--redact-header", "X-Trace"], in: workspace.folder)
            let proxy = try await capture.address(after: "Listening on")
            let http = LoopbackHTTP()
            defer { http.close() }
            let live = try await http.send(
                "GET", "/me?access_token=live-access-token-1&v=2&sid=live-field-5", to: proxy,
                headers: [("Authorization", "Bearer live-bearer-token-2"), ("Cookie", "session=live-cookie-value-3"), ("X-Trace", "live-trace-6")])
            let run = try await capture.stop()
            // Then the client saw the live answer, and the default cassette holds none of the secrets
            #expect(live.status == 200)
            #expect(live.headers["Set-Cookie"] == "session=upstream-session-secret-3; Path=/; HttpOnly")
            #expect(run.status == 0, "\(run.stderr)")
            let out = "Recordings/127.0.0.1-\(upstream.baseURL!.port!).json"
            #expect(run.stdout.contains("GET /me?access_token=%3Credacted%3E&v=2&sid=%3Credacted%3E → 200, "))
            #expect(run.stdout.hasSuffix("Stopped on SIGINT: 1 exchange recorded; \(out) holds 1 interaction.\n"))
            let text = String(decoding: try workspace.contents(out), as: UTF8.self)
            for secret in ["live-access-token-1", "live-bearer-token-2", "live-cookie-value-3", "upstream-session-secret-3", "live-field-5", "live-trace-6"] {
                #expect(!text.contains(secret), "\(secret) is on disk")
            }
            #expect(try await workspace.run(["lint", out]).status == 0)

            // And the replay answers the same request carrying other live secrets
            let replay = try RunningRecorder(["replay", out, "--strict"], in: workspace.folder)
            let replayBase = try await replay.address(after: "Replaying")
            let again = try await http.send(
                "GET", "/me?access_token=another-token&v=2&sid=another-field", to: replayBase,
                headers: [("Authorization", "Bearer another"), ("Cookie", "session=another")])
            let replayRun = try await replay.stop()
            #expect(again.status == 200)
            #expect(again.body == live.body)
            #expect(again.headers["Set-Cookie"] == "session=<redacted>; Path=/; HttpOnly")
            #expect(replayRun.status == 0, "\(replayRun.stderr)")
        }
    }

    @Test func newEpisodes_replaysWhatTheCassetteHolds_andAppendsOnlyTheRest() async throws {
        // Given a cassette captured from an upstream with one exchange
        let workspace = try Workspace()
        defer { workspace.remove() }
        let users = try Cassette.loadAll(from: Workspace.recordings.appendingPathComponent("github"))
        try await withMockServer(cassettes: users, configuration: .init(faults: .none)) { upstream in
            let base = upstream.baseURL!.absoluteString
            let http = LoopbackHTTP()
            defer { http.close() }
            let first = try RunningRecorder(["capture", "--upstream", base, "--out", "users.json"], in: workspace.folder)
            _ = try await http.send("GET", "/users/octocat", to: try await first.address(after: "Listening on"))
            #expect(try await first.stop().status == 0)
            // When capturing again in new-episodes mode, with the recorded request and a new one
            let second = try RunningRecorder(["capture", "--upstream", base, "--out", "users.json", "--mode", "new-episodes"], in: workspace.folder)
            let proxy = try await second.address(after: "Listening on")
            let replayed = try await http.send("GET", "/users/octocat", to: proxy)
            let recorded = try await http.send("GET", "/users/no-such-user-xyz", to: proxy)
            let run = try await second.stop()
            // Then the first is replayed (the upstream saw it once), the second recorded and appended
            #expect(replayed.status == 200)
            #expect(recorded.status == 404)
            #expect(upstream.journal.count(of: .get("/users/octocat")) == 1)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("Recording \(base) into users.json (it holds 1 interaction; requests they match are replayed)\n"))
            #expect(run.stdout.contains("GET /users/octocat → 200 replayed from users interaction 0\n"))
            #expect(run.stdout.contains("GET /users/no-such-user-xyz → 404, "))
            #expect(run.stdout.hasSuffix("Stopped on SIGINT: 1 exchange recorded, 1 request replayed; users.json holds 2 interactions.\n"))
            let saved = try Cassette.load(from: workspace.url("users.json"))
            #expect(saved.interactions.map(\.request.target) == ["/users/octocat", "/users/no-such-user-xyz"])
        }
    }

    @Test func unreachableUpstream_answers502_printsTheFailure_andRecordsNothing() async throws {
        // Given capture in front of a port nothing listens on
        let workspace = try Workspace()
        defer { workspace.remove() }
        let released = HTTPServer { _ in .close }
        let port = try await released.start().port!
        await released.stop()
        let capture = try RunningRecorder(["capture", "--upstream", "http://127.0.0.1:\(port)", "--out", "down.json"], in: workspace.folder)
        let proxy = try await capture.address(after: "Listening on")
        // When a request goes through
        let http = LoopbackHTTP()
        defer { http.close() }
        let response = try await http.send("GET", "/health", to: proxy)
        let run = try await capture.stop()
        // Then the client gets a 502 saying nothing was recorded, the line says so too, and no cassette is
        // written: a fixture of a dead upstream would replay it for good
        #expect(response.status == 502)
        #expect(response.headers["X-MockServer-Upstream-Failure"] == "refused")
        #expect(String(decoding: response.body, as: UTF8.self).contains("could not be reached; nothing was recorded for this request."))
        #expect(run.status == 0)
        #expect(run.stdout.contains("GET /health → 502 upstream refused, "))
        #expect(run.stdout.contains(" bytes, not recorded: the upstream could not be reached\n"))
        #expect(run.stdout.hasSuffix("nothing recorded; down.json was not written.\n"))
        #expect(!workspace.exists("down.json"))
    }

    @Test func captureIntoAnExistingCassette_withoutNewEpisodes_exitsOne_andLeavesItUntouched() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.copyRecording("feed/feeds.json", to: "feeds.json")
        let before = try workspace.contents("feeds.json")
        let run = try await workspace.run(["capture", "--upstream", "https://api.nice.example/v1", "--out", "feeds.json"])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "recorder: feeds.json already exists; capture into it with --mode new-episodes (which only appends), or choose another --out\n")
        #expect(try workspace.contents("feeds.json") == before)
    }

    @Test func newEpisodes_fromAnotherUpstream_exitsOne_andLeavesTheCassetteUntouched() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.copyRecording("feed/feeds.json", to: "feeds.json")
        let before = try workspace.contents("feeds.json")
        let run = try await workspace.run(["capture", "--upstream", "http://127.0.0.1:9", "--out", "feeds.json", "--mode", "new-episodes"])
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "recorder: feeds.json was recorded from https://api.nice.example/v1, not http://127.0.0.1:9; record new episodes from the same upstream, or into another file\n"
        )
        #expect(try workspace.contents("feeds.json") == before)
    }

    @Test(
        arguments: [
            (["capture"], "recorder: --upstream is required\n"),
            (["capture", "--upstream", "ftp://example.com"], "recorder: --upstream 'ftp://example.com' is not an http or https URL\n"),
            (
                ["capture", "--upstream", "https://api.example.com/?key=1"],
                "recorder: --upstream 'https://api.example.com/?key=1' has a query; give the base URL without one\n"
            ),
            (["capture", "--upstream", "https://api.example.com", "--port", "65536"], "recorder: --port '65536' is not a whole number from 0 to 65535\n"),
            (["capture", "--upstream", "https://api.example.com", "--mode", "all"], "recorder: --mode 'all' is not record or new-episodes\n"),
            (["capture", "--upstream", "https://api.example.com", "extra"], "recorder: capture takes no arguments, but 'extra' is one too many\n"),
            (
                ["capture", "--upstream", "https://api.example.com", "--verbose"],
                "recorder: capture does not take the option '--verbose'; run `recorder capture --help` for its options\n"
            ),
            (
                ["capture", "--upstream", "https://api.example.com", "--allow-host", "mockserver:8080"],
                "recorder: the allowed host 'mockserver:8080' is not a host name or IP address; give a name such as mockserver or 10.0.2.2 (IPv6 in brackets), without scheme, port or path, or * to allow any name\n"
            ),
        ] as [([String], String)])
    func badCaptureCommandLines_exitTwo_withOneSentence(arguments: [String], message: String) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let run = try await workspace.run(arguments)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == message)
        #expect(!workspace.exists("Recordings"))
    }
}
