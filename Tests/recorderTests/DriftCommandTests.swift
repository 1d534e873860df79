import Foundation
@testable import MockServer
@testable import recorder
import ServiceReplayShared
import Testing
import ServiceReplayTestSupport

/// `recorder drift` run as a user would: the built binary against an upstream on loopback that was recorded
/// at version 1 (through `recorder capture`) and is then switched to version 2.
@Suite struct DriftCommandTests {
    /// A workspace holding `Recordings/api.json`, captured from `upstream` at version 1.
    private static func recorded(from upstream: URL) async throws -> Workspace {
        let workspace = try Workspace()
        let capture = try RunningRecorder(["capture", "--upstream", upstream.absoluteString, "--out", "Recordings/api.json"], in: workspace.folder)
        let proxy = try await capture.address(after: "Listening on")
        let http = LoopbackHTTP()
        defer { http.close() }
        for request in VersionedUpstream.requests {
            _ = try await http.send(request.method, request.target, to: proxy, headers: request.headers,
                                    body: request.method == "POST" ? Data(#"{"name":"x"}"#.utf8) : Data())
        }
        let run = try await capture.stop()
        #expect(run.status == 0, "\(run.stderr)")
        return workspace
    }

    /// Runs `body` with a versioned upstream at version 1 and a cassette recorded from it.
    private func withRecordedUpstream(_ body: (VersionedUpstream, URL, Workspace) async throws -> Void) async throws {
        let handler = VersionedUpstream()
        let server = HTTPServer(configuration: .init(), handler: handler)
        let base = try await server.start()
        let workspace = try await Self.recorded(from: base)
        defer { workspace.remove() }
        do {
            try await body(handler, base, workspace)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private let auth = ["--header", "Authorization: Bearer \(VersionedUpstream.token)"]

    @Test func unchangedUpstream_reportsNoDrift_exit0_withTheRedactedHeaderFilled_andThePostSkipped() async throws {
        try await withRecordedUpstream { _, base, workspace in
            // GIVEN a cassette that holds Authorization as <redacted>
            let cassette = String(decoding: try workspace.contents("Recordings/api.json"), as: UTF8.self)
            #expect(cassette.contains(Cassette.redactionPlaceholder) && !cassette.contains(VersionedUpstream.token))
            // WHEN drift runs against the same version with the token given on the command line
            let run = try await workspace.run(["drift", "Recordings/api.json"] + auth)
            // THEN every GET answers as recorded (the token reached /me), and the POST is skipped
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr == "")
            #expect(run.stdout == """
                Recordings/api.json against \(base.absoluteString)
                #0 GET /removed: no drift
                #1 GET /added: no drift
                #2 GET /typed: no drift
                #3 GET /nested: no drift
                #4 GET /status: no drift
                #5 GET /content: no drift
                #6 GET /events: no drift
                #7 GET /me: no drift
                #8 POST /items: skipped: POST is not re-sent without --all-methods
                No drift: 8 interactions checked, 1 skipped.

                """)
            // AND the cassette is untouched
            #expect(String(decoding: try workspace.contents("Recordings/api.json"), as: UTF8.self) == cassette)
        }
    }

    @Test func changedUpstream_namesEachChangeAtItsPath_andExits1() async throws {
        try await withRecordedUpstream { upstream, base, workspace in
            let before = try workspace.contents("Recordings/api.json")
            // WHEN the upstream moves to version 2 and drift runs with every method
            upstream.switchTo(2)
            let run = try await workspace.run(["drift", "Recordings/api.json", "--all-methods"] + auth)
            // THEN each change is one line at its path, breaking or additive, and the exit status is 1
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr == "")
            #expect(run.stdout == """
                Recordings/api.json against \(base.absoluteString)
                #0 GET /removed
                  breaking  $.email: string → missing (field removed)
                #1 GET /added
                  additive  $.bio: missing → string (field added)
                #2 GET /typed
                  breaking  $.id: number → string (type changed)
                #3 GET /nested
                  breaking  $.repos[*].owner.id: number → string (type changed)
                #4 GET /status
                  breaking  status: 200 → 404 (class 2xx → 4xx)
                #5 GET /content
                  breaking  Content-Type: application/json → text/html (content type changed)
                #6 GET /events
                  breaking  event delta $.text: string → array (type changed)
                #7 GET /me: no drift
                #8 POST /items: no drift
                Drift: 9 interactions checked, 6 breaking changes, 1 additive change.

                """)
            #expect(try workspace.contents("Recordings/api.json") == before)
        }
    }

    @Test func onlyAdditiveChanges_exit0_unlessStrict() async throws {
        try await withRecordedUpstream { upstream, _, workspace in
            // GIVEN a cassette holding only GET /added
            var cassette = try Cassette.load(from: workspace.url("Recordings/api.json"))
            cassette.interactions = cassette.interactions.filter { $0.request.target == "/added" }
            try cassette.save(to: workspace.url("Recordings/added.json"))
            upstream.switchTo(2)
            // WHEN drift runs with and without --strict
            let plain = try await workspace.run(["drift", "Recordings/added.json"])
            let strict = try await workspace.run(["drift", "Recordings/added.json", "--strict"])
            // THEN the additive change is a warning (exit 0), and a failure under --strict
            #expect(plain.status == 0, "\(plain.stderr)")
            #expect(plain.stdout.hasSuffix("  additive  $.bio: missing → string (field added)\nDrift: 1 interaction checked, 0 breaking changes, 1 additive change.\n"))
            #expect(strict.status == 1, "\(strict.stderr)")
            #expect(strict.stdout.hasSuffix("Drift: 1 interaction checked, 0 breaking changes, 1 additive change. (--strict: additive changes fail)\n"))
        }
    }

    @Test func redactedHeaderWithoutAValue_isSkipped_andTheSkipReported() async throws {
        try await withRecordedUpstream { _, _, workspace in
            let run = try await workspace.run(["drift", "Recordings/api.json"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("\n#7 GET /me: skipped: header Authorization is <redacted>; give its value with --header 'Authorization: ...' or RECORDER_HEADER_AUTHORIZATION\n"))
            #expect(run.stdout.hasSuffix("No drift: 7 interactions checked, 2 skipped.\n"))
        }
    }

    @Test func jsonAndJUnit_carryTheSameFindings() async throws {
        try await withRecordedUpstream { upstream, _, workspace in
            upstream.switchTo(2)
            let run = try await workspace.run(["drift", "Recordings/api.json", "--json", "--junit", "drift.xml"] + auth)
            #expect(run.status == 1, "\(run.stderr)")
            let document = try CassetteJSON(parsing: Data(run.stdout.utf8))
            #expect(document["exitStatus"] == 1)
            #expect(document["summary"]?["breaking"] == 6)
            #expect(document["summary"]?["skipped"] == 1)
            let removed = document["cassettes"]?[0]?["interactions"]?[0]
            #expect(removed?["result"] == "changed")
            #expect(removed?["changes"] == [["severity": "breaking", "place": "$.email", "recorded": "string", "live": "missing", "kind": "field removed"]])
            let junit = String(decoding: try workspace.contents("drift.xml"), as: UTF8.self)
            #expect(junit.contains(#"<testsuites name="recorder drift" tests="9" failures="6" skipped="1">"#))
            #expect(junit.contains(##"<testcase classname="api" name="#0 GET /removed">"##))
            #expect(junit.contains(#"<failure message="1 breaking change">breaking  $.email: string → missing (field removed)</failure>"#))
            #expect(junit.contains(#"<system-out>warning: additive  $.bio: missing → string (field added)</system-out>"#))
            #expect(junit.contains(#"<skipped message="POST is not re-sent without --all-methods"/>"#))
        }
    }

    @Test func unreachableUpstream_exit1_withOneSentence() async throws {
        try await withRecordedUpstream { _, _, workspace in
            let closed = try ReservedPort()
            let run = try await workspace.run(["drift", "Recordings/api.json", "--upstream", closed.baseURL.absoluteString] + auth)
            #expect(run.status == 1)
            #expect(run.stdout == "")
            #expect(run.stderr.hasPrefix("recorder: cannot reach \(closed.baseURL.absoluteString), so nothing was compared: Could not connect to "))
            #expect(run.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test(arguments: [
        (["drift"], "recorder: drift needs the cassettes to check; run `recorder drift --help`\n"),
        (["drift", "Recordings/api.json", "--rate", "10"], "recorder: --rate '10' is not a number of requests a second above 0 and at most 5\n"),
        (["drift", "Recordings/api.json", "--header", "X-Other: 1"],
         "recorder: --header 'X-Other' fills no redacted header of these cassettes; give only headers recorded as <redacted>\n"),
        (["drift", "Recordings/api.json", "--junit", "Recordings/api.json"],
         "recorder: --junit 'Recordings/api.json' names a cassette; drift never writes to a cassette, give another file\n"),
    ])
    func usageErrors_exit2_withOneSentence(arguments: [String], message: String) async throws {
        // GIVEN a cassette whose one request holds a redacted Authorization header (never sent: each line is refused first)
        let workspace = try Workspace()
        defer { workspace.remove() }
        let me = Interaction(request: RecordedRequest(method: "GET", target: "/me", headers: ["Authorization": Cassette.redactionPlaceholder]),
                             response: RecordedResponse(status: 200))
        try FileManager.default.createDirectory(at: workspace.url("Recordings"), withIntermediateDirectories: true)
        try Cassette(name: "api", upstream: "http://127.0.0.1:9", interactions: [me]).save(to: workspace.url("Recordings/api.json"))
        // WHEN drift runs with a bad command line THEN it exits 2 with one sentence
        let run = try await workspace.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderr == message)
        #expect(run.stdout == "")
    }

    /// An upstream that answers 503 with `Retry-After: 1` to its first request, then 200.
    final class BusyOnce: HTTPHandler {
        let requests = Lock(0)
        func reply(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPReply {
            let count = requests.withLock { $0 += 1; return $0 }
            guard count > 1 else { return .response(status: 503, headers: ["Retry-After": "1"], body: Data()) }
            return .response(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"id":1}"#.utf8))
        }
    }

    @Test(arguments: [(["drift", "Recordings/busy.json"], Int32(0), 2, "No drift: 1 interaction checked."),
                      (["drift", "Recordings/busy.json", "--max-wait", "0"], Int32(1), 1,
                       "  breaking  status: 200 → 503 (class 2xx → 5xx)\n  breaking  Content-Type: application/json → none (content type changed)\n"
                       + "Drift: 1 interaction checked, 2 breaking changes, 0 additive changes.")])
    func retryAfter_isWaitedOut_upToMaxWait(arguments: [String], status: Int32, requests: Int, ending: String) async throws {
        // GIVEN an upstream busy for its first request, and a cassette of its answer
        let handler = BusyOnce()
        let server = HTTPServer(configuration: .init(), handler: handler)
        let base = try await server.start()
        let workspace = try Workspace()
        defer { workspace.remove() }
        try FileManager.default.createDirectory(at: workspace.url("Recordings"), withIntermediateDirectories: true)
        let answer = RecordedResponse(status: 200, headers: ["Content-Type": "application/json"], body: .json(["id": 2]))
        try Cassette(name: "busy", upstream: base.absoluteString, interactions: [Interaction(request: RecordedRequest(method: "GET", target: "/item"), response: answer)])
            .save(to: workspace.url("Recordings/busy.json"))
        // WHEN drift runs THEN the 503 is waited out and the request sent again, unless its wait exceeds --max-wait
        let run = try await workspace.run(arguments)
        await server.stop()
        #expect(run.status == status, "\(run.stderr)")
        #expect(run.stdout.hasSuffix(ending + "\n"), "\(run.stdout)")
        #expect(handler.requests.withLock { $0 } == requests)
    }

    @Test func redactedHeaders_areFilledFromTheEnvironment_whenNotGiven() throws {
        // GIVEN requests holding a redacted Authorization and X-Api-Key
        let request = RecordedRequest(method: "GET", target: "/me", headers: ["Authorization": "Bearer <redacted>", "X-Api-Key": "<redacted>"])
        // WHEN values come from --header for one and the environment for both
        let fills = DriftCommand.fillValues(["Authorization": "Bearer given"], for: [request],
                                            environment: ["RECORDER_HEADER_AUTHORIZATION": "Bearer env", "RECORDER_HEADER_X_API_KEY": "key-9"])
        // THEN --header wins, the environment fills the rest, and the request is sent with both
        #expect(fills["Authorization"] == "Bearer given")
        #expect(fills["X-Api-Key"] == "key-9")
        let prepared = try DriftRequest.prepare(request, fills: fills).get()
        #expect(prepared.headers.lines == [HTTPHeader(name: "Authorization", value: "Bearer given"), HTTPHeader(name: "X-Api-Key", value: "key-9")])
    }
}
