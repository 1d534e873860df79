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
            _ = try await http.send(
                request.method, request.target, to: proxy, headers: request.headers,
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
            #expect(
                run.stdout == """
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
            #expect(
                run.stdout == """
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
            #expect(
                plain.stdout.hasSuffix(
                    "  additive  $.bio: missing → string (field added)\nDrift: 1 interaction checked, 0 breaking changes, 1 additive change.\n"))
            #expect(strict.status == 1, "\(strict.stderr)")
            #expect(strict.stdout.hasSuffix("Drift: 1 interaction checked, 0 breaking changes, 1 additive change. (--strict: additive changes fail)\n"))
        }
    }

    @Test func redactedHeaderWithoutAValue_isSkipped_andTheSkipReported() async throws {
        try await withRecordedUpstream { _, _, workspace in
            let run = try await workspace.run(["drift", "Recordings/api.json"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                run.stdout.contains(
                    "\n#7 GET /me: skipped: header Authorization is <redacted>; give its value with --header 'Authorization: ...' or RECORDER_HEADER_AUTHORIZATION\n"
                ))
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
        (["drift", "Recordings/api.json", "--rate", "0"], "recorder: --rate '0' is not a number of requests a second above 0 and at most 5\n"),
        (["drift", "Recordings/api.json", "--max-wait", "3601"], "recorder: --max-wait '3601' is not a whole number from 0 to 3600\n"),
        (["drift", "Recordings/api.json", "--header", "Bad Name: 1"], "recorder: --header 'Bad Name: 1' is not 'Name: value'\n"),
        (["drift", "Recordings/api.json", "--header", ": 1"], "recorder: --header ': 1' is not 'Name: value'\n"),
        (
            ["drift", "Recordings/api.json", "--header", "X-Other: 1"],
            "recorder: --header 'X-Other' fills no redacted header of these cassettes; give only headers recorded as <redacted>\n"
        ),
        (
            ["drift", "Recordings/api.json", "--junit", "Recordings/api.json"],
            "recorder: --junit 'Recordings/api.json' names a cassette; drift never writes to a cassette, give another file\n"
        ),
    ])
    func usageErrors_exit2_withOneSentence(arguments: [String], message: String) async throws {
        // GIVEN a cassette whose one request holds a redacted Authorization header (never sent: each line is refused first)
        let workspace = try Workspace()
        defer { workspace.remove() }
        let me = Interaction(
            request: RecordedRequest(method: "GET", target: "/me", headers: ["Authorization": Cassette.redactionPlaceholder]),
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
            let count = requests.withLock {
                $0 += 1; return $0
            }
            guard count > 1 else { return .response(status: 503, headers: ["Retry-After": "1"], body: Data()) }
            return .response(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"id":1}"#.utf8))
        }
    }

    @Test(arguments: [
        (["drift", "Recordings/busy.json"], Int32(0), 2, "No drift: 1 interaction checked."),
        (["drift", "Recordings/busy.json", "--max-wait", "3600"], Int32(0), 2, "No drift: 1 interaction checked."),
        (
            ["drift", "Recordings/busy.json", "--max-wait", "0"], Int32(1), 1,
            "  breaking  status: 200 → 503 (class 2xx → 5xx)\n  breaking  Content-Type: application/json → none (content type changed)\n"
                + "Drift: 1 interaction checked, 2 breaking changes, 0 additive changes."
        ),
    ])
    func retryAfter_isWaitedOut_upToMaxWait(arguments: [String], status: Int32, requests: Int, ending: String) async throws {
        // GIVEN an upstream busy for its first request, and a cassette of its answer
        let handler = BusyOnce()
        let server = HTTPServer(configuration: .init(), handler: handler)
        let base = try await server.start()
        let workspace = try Workspace()
        defer { workspace.remove() }
        try FileManager.default.createDirectory(at: workspace.url("Recordings"), withIntermediateDirectories: true)
        let answer = RecordedResponse(status: 200, headers: ["Content-Type": "application/json"], body: .json(["id": 2]))
        try Cassette(
            name: "busy", upstream: base.absoluteString, interactions: [Interaction(request: RecordedRequest(method: "GET", target: "/item"), response: answer)]
        )
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
        let fills = DriftCommand.fillValues(
            ["Authorization": "Bearer given"], for: [request],
            environment: ["RECORDER_HEADER_AUTHORIZATION": "Bearer env", "RECORDER_HEADER_X_API_KEY": "key-9"])
        // THEN --header wins, the environment fills the rest, and the request is sent with both
        #expect(fills["Authorization"] == "Bearer given")
        #expect(fills["X-Api-Key"] == "key-9")
        let prepared = try DriftRequest.prepare(request, fills: fills).get()
        #expect(prepared.headers.lines == [HTTPHeader(name: "Authorization", value: "Bearer given"), HTTPHeader(name: "X-Api-Key", value: "key-9")])
    }

    /// An upstream whose answers move from version 1 (what the hand-written cassettes hold) to version 2, one
    /// route per change the tests below pin; every other path answers `{"ok":true}` to any method. It keeps
    /// the method of every request it gets.
    final class Shifting: HTTPHandler {
        let version = Lock(1)
        let methods = Lock<[String]>([])

        /// Makes every later answer come from `version` (1 or 2).
        func switchTo(_ version: Int) {
            self.version.withLock { $0 = version }
        }

        static let events = (
            v1: "event: start\ndata: {}\n\nevent: delta\ndata: {\"text\":\"a\"}\n\n",
            v2: "event: delta\ndata: {\"text\":\"b\"}\n\nevent: finish\ndata: {}\n\n"
        )

        func reply(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPReply {
            methods.withLock { $0.append(request.method) }
            let v2 = version.withLock { $0 } == 2
            func json(_ text: String, status: Int = 200) -> HTTPReply {
                .response(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
            }
            switch request.path {
            case "/created": return json(#"{"id":1}"#, status: v2 ? 201 : 200)
            case "/linked":
                return .response(
                    status: 200, headers: v2 ? ["Content-Type": "application/json", "ETag": "\"2\""] : ["Content-Type": "application/json", "Link": "</p2>"],
                    body: Data("{}".utf8))
            case "/nulled": return json(v2 ? #"{"a":null,"b":null}"# : #"{"a":1,"b":null}"#)
            case "/graphql" where String(decoding: request.body, as: UTF8.self).contains("Viewer"):
                return json(
                    v2
                        ? #"{"data":{"viewer":null},"errors":[{"message":"Cannot query field \"name\" on type \"User\".","path":["viewer","name"]}]}"#
                        : #"{"data":{"viewer":{"login":"octocat","name":"Mona"}}}"#)
            case "/graphql":
                return json(v2 ? #"{"data":{"user":{"login":"octocat","fullName":"Mona"}}}"# : #"{"data":{"user":{"login":"octocat","name":"Mona"}}}"#)
            case "/events":
                return .response(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data((v2 ? Self.events.v2 : Self.events.v1).utf8))
            default: return json(#"{"ok":true}"#)
            }
        }
    }

    /// A recorded JSON answer.
    private static func answer(_ text: String, status: Int = 200, contentType: String = "application/json") -> RecordedResponse {
        RecordedResponse(status: status, headers: ["Content-Type": contentType], body: RecordedBody(Data(text.utf8), contentType: contentType))
    }

    /// Runs `body` with a ``Shifting`` upstream at version 1 and a workspace holding `Recordings/NAME.json`,
    /// whose interactions are `interactions` (as version 1 answers them) with the upstream's address.
    private func withShifting(
        _ name: String, _ interactions: [Interaction],
        _ body: (Shifting, URL, Workspace) async throws -> Void
    ) async throws {
        let handler = Shifting()
        let server = HTTPServer(configuration: .init(), handler: handler)
        let base = try await server.start()
        let workspace = try Workspace()
        defer { workspace.remove() }
        do {
            try FileManager.default.createDirectory(at: workspace.url("Recordings"), withIntermediateDirectories: true)
            try Cassette(name: name, upstream: base.absoluteString, interactions: interactions).save(to: workspace.url("Recordings/\(name).json"))
            try await body(handler, base, workspace)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private static let created = Interaction(request: RecordedRequest(method: "GET", target: "/created"), response: answer(#"{"id":1}"#))

    @Test func statusChangeWithinItsClass_isAdditive_exit0_and1OnlyUnderStrict() async throws {
        try await withShifting("created", [Self.created]) { upstream, base, workspace in
            // GIVEN GET /created recorded as 200, now answered 201 with the same body
            upstream.switchTo(2)
            // WHEN drift runs with and without --strict
            let plain = try await workspace.run(["drift", "Recordings/created.json"])
            let strict = try await workspace.run(["drift", "Recordings/created.json", "--strict"])
            // THEN the change is additive: a warning with exit 0, a failure (exit 1) only under --strict
            let report = """
                Recordings/created.json against \(base.absoluteString)
                #0 GET /created
                  additive  status: 200 → 201 (same class)
                Drift: 1 interaction checked, 0 breaking changes, 1 additive change.
                """
            #expect(plain.status == 0, "\(plain.stderr)")
            #expect(plain.stdout == report + "\n")
            #expect(strict.status == 1, "\(strict.stderr)")
            #expect(strict.stdout == report + " (--strict: additive changes fail)\n")
            #expect(plain.stderr == "" && strict.stderr == "")
        }
    }

    @Test func valueTurnedNull_isBreaking_nullInBothVersions_isNoChange() async throws {
        let nulled = Interaction(request: RecordedRequest(method: "GET", target: "/nulled"), response: Self.answer(#"{"a":1,"b":null}"#))
        try await withShifting("nulled", [nulled]) { upstream, base, workspace in
            // GIVEN GET /nulled recorded as {"a":1,"b":null}
            // WHEN the upstream answers as recorded THEN a null in both versions is no drift, even under --strict
            let same = try await workspace.run(["drift", "Recordings/nulled.json", "--strict"])
            #expect(same.status == 0, "\(same.stderr)")
            #expect(same.stdout.hasSuffix("#0 GET /nulled: no drift\nNo drift: 1 interaction checked.\n"), "\(same.stdout)")
            // WHEN it answers {"a":null,"b":null}
            upstream.switchTo(2)
            let plain = try await workspace.run(["drift", "Recordings/nulled.json"])
            let strict = try await workspace.run(["drift", "Recordings/nulled.json", "--strict"])
            // THEN the value turned null is one breaking change (exit 1), and $.b, null in both, is not named;
            // --strict adds nothing to a breaking-only report
            let report = """
                Recordings/nulled.json against \(base.absoluteString)
                #0 GET /nulled
                  breaking  $.a: number → null (null where the recording had a value)
                Drift: 1 interaction checked, 1 breaking change, 0 additive changes.

                """
            #expect(plain.status == 1, "\(plain.stderr)")
            #expect(plain.stdout == report)
            #expect(strict.status == 1, "\(strict.stderr)")
            #expect(strict.stdout == report)
        }
    }

    @Test func graphQL_queriesAreResent_byOperation_mutationsWait_andAnErrorWhereDataWasIsBreaking() async throws {
        func operation(_ body: String, _ answer: String) -> Interaction {
            Interaction(
                request: RecordedRequest(method: "POST", target: "/graphql", headers: ["Content-Type": "application/json"], body: .text(body)),
                response: Self.answer(answer))
        }
        let cassette = [
            operation(#"{"query":"query User { user(login: \"octocat\") { login name } }"}"#, #"{"data":{"user":{"login":"octocat","name":"Mona"}}}"#),
            operation(#"{"query":"query Viewer { viewer { login name } }"}"#, #"{"data":{"viewer":{"login":"octocat","name":"Mona"}}}"#),
            operation(#"{"query":"mutation AddStar { addStar(id: 1) { id } }"}"#, #"{"data":{"addStar":{"id":1}}}"#),
        ]
        try await withShifting("graphql", cassette) { upstream, base, workspace in
            // GIVEN a GraphQL API whose schema renamed user.name to fullName, and that can no longer give viewer.name
            upstream.switchTo(2)
            // WHEN drift runs without --all-methods
            let run = try await workspace.run(["drift", "Recordings/graphql.json"])
            // THEN each query is re-sent and reported by operation, the error is breaking at the data path it
            // names, and the mutation waits for --all-methods
            #expect(run.status == 1, "\(run.stderr)")
            #expect(
                run.stdout == """
                    Recordings/graphql.json against \(base.absoluteString)
                    #0 POST /graphql (GraphQL User)
                      additive  $.data.user.fullName: missing → string (field added)
                      breaking  $.data.user.name: string → missing (field removed)
                    #1 POST /graphql (GraphQL Viewer)
                      breaking  $.data.viewer.name: string → error "Cannot query field \\"name\\" on type \\"User\\"." (GraphQL error where the recording had none)
                      breaking  $.data.viewer: object → null (null where the recording had a value)
                    #2 POST /graphql (GraphQL AddStar): skipped: a GraphQL POST that is not a query is not re-sent without --all-methods
                    Drift: 2 interactions checked, 3 breaking changes, 1 additive change, 1 skipped.

                    """)
            #expect(upstream.methods.withLock { $0 } == ["POST", "POST"])
        }
    }

    @Test func eventNoLongerSent_isBreaking_aNewEventName_isAdditive() async throws {
        let events = Interaction(
            request: RecordedRequest(method: "GET", target: "/events"),
            response: Self.answer(Shifting.events.v1, contentType: "text/event-stream"))
        try await withShifting("events", [events]) { upstream, base, workspace in
            // GIVEN GET /events recorded sending `start` and `delta`, now sending `delta` and `finish`
            upstream.switchTo(2)
            let run = try await workspace.run(["drift", "Recordings/events.json"])
            // THEN `start` is breaking, `finish` additive, and the exit status is 1
            #expect(run.status == 1, "\(run.stderr)")
            #expect(
                run.stdout == """
                    Recordings/events.json against \(base.absoluteString)
                    #0 GET /events
                      additive  event finish: missing → sent (event added)
                      breaking  event start: sent → missing (event no longer sent)
                    Drift: 1 interaction checked, 1 breaking change, 1 additive change.

                    """)
        }
    }

    @Test func headAndOptions_areReSentLikeGET_everyOtherMethodOnlyWithAllMethods() async throws {
        // GIVEN one interaction per method, each recorded as the upstream answers it
        let methods = ["HEAD", "OPTIONS", "GET", "POST", "PUT", "PATCH", "DELETE"]
        let interactions = methods.map { method in
            Interaction(
                request: RecordedRequest(method: method, target: "/any"),
                response: method == "HEAD" ? RecordedResponse(status: 200, headers: ["Content-Type": "application/json"]) : Self.answer(#"{"ok":true}"#))
        }
        try await withShifting("methods", interactions) { upstream, base, workspace in
            // WHEN drift runs without --all-methods
            let safe = try await workspace.run(["drift", "Recordings/methods.json"])
            // THEN HEAD, OPTIONS and GET are sent and compared; the others are skipped, and never reach the upstream
            #expect(safe.status == 0, "\(safe.stderr)")
            #expect(
                safe.stdout == """
                    Recordings/methods.json against \(base.absoluteString)
                    #0 HEAD /any: no drift
                    #1 OPTIONS /any: no drift
                    #2 GET /any: no drift
                    #3 POST /any: skipped: POST is not re-sent without --all-methods
                    #4 PUT /any: skipped: PUT is not re-sent without --all-methods
                    #5 PATCH /any: skipped: PATCH is not re-sent without --all-methods
                    #6 DELETE /any: skipped: DELETE is not re-sent without --all-methods
                    No drift: 3 interactions checked, 4 skipped.

                    """)
            #expect(upstream.methods.withLock { $0 } == ["HEAD", "OPTIONS", "GET"])
            // WHEN drift runs with --all-methods THEN every method is sent
            upstream.methods.withLock { $0 = [] }
            let all = try await workspace.run(["drift", "Recordings/methods.json", "--all-methods"])
            #expect(all.status == 0, "\(all.stderr)")
            #expect(all.stdout.hasSuffix("#6 DELETE /any: no drift\nNo drift: 7 interactions checked.\n"), "\(all.stdout)")
            #expect(upstream.methods.withLock { $0 } == methods)
        }
    }

    @Test func junitUnderStrict_countsAdditiveChangesAsFailures_agreeingWithExitStatus1() async throws {
        let skippedPost = Interaction(request: RecordedRequest(method: "POST", target: "/items"), response: Self.answer(#"{"id":7}"#, status: 201))
        try await withShifting("created", [Self.created, skippedPost]) { upstream, _, workspace in
            // GIVEN an additive change (200 → 201) and a skipped POST
            upstream.switchTo(2)
            // WHEN drift writes JUnit with and without --strict
            let plain = try await workspace.run(["drift", "Recordings/created.json", "--junit", "plain.xml", "--json"])
            let strict = try await workspace.run(["drift", "Recordings/created.json", "--junit", "strict.xml", "--json", "--strict"])
            // THEN without --strict the change is a warning in system-out, no failure, and the exit status 0
            #expect(plain.status == 0, "\(plain.stderr)")
            #expect(
                String(decoding: try workspace.contents("plain.xml"), as: UTF8.self) == """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <testsuites name="recorder drift" tests="2" failures="0" skipped="1">
                      <testsuite name="Recordings/created.json" tests="2" failures="0" skipped="1">
                        <testcase classname="created" name="#0 GET /created">
                          <system-out>warning: additive  status: 200 → 201 (same class)</system-out>
                        </testcase>
                        <testcase classname="created" name="#1 POST /items">
                          <skipped message="POST is not re-sent without --all-methods"/>
                        </testcase>
                      </testsuite>
                    </testsuites>

                    """)
            // AND under --strict it is a failure, counted in both totals, as the exit status 1 says
            #expect(strict.status == 1, "\(strict.stderr)")
            #expect(
                String(decoding: try workspace.contents("strict.xml"), as: UTF8.self) == """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <testsuites name="recorder drift" tests="2" failures="1" skipped="1">
                      <testsuite name="Recordings/created.json" tests="2" failures="1" skipped="1">
                        <testcase classname="created" name="#0 GET /created">
                          <failure message="1 breaking change">additive  status: 200 → 201 (same class)</failure>
                        </testcase>
                        <testcase classname="created" name="#1 POST /items">
                          <skipped message="POST is not re-sent without --all-methods"/>
                        </testcase>
                      </testsuite>
                    </testsuites>

                    """)
            // AND the JSON report agrees: its exit status is the command's
            let plainJSON = try CassetteJSON(parsing: Data(plain.stdout.utf8))
            let strictJSON = try CassetteJSON(parsing: Data(strict.stdout.utf8))
            #expect(plainJSON["exitStatus"] == 0 && strictJSON["exitStatus"] == 1)
            #expect(plainJSON["summary"]?["strict"] == false && strictJSON["summary"]?["strict"] == true)
            #expect(strictJSON["summary"]?["additive"] == 1 && strictJSON["summary"]?["breaking"] == 0 && strictJSON["summary"]?["checked"] == 1)
        }
    }

    @Test func headerFieldsNamed_areComparedByPresence() async throws {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        headers.add(name: "Link", value: "</p2>")
        let linked = Interaction(
            request: RecordedRequest(method: "GET", target: "/linked"),
            response: RecordedResponse(status: 200, headers: headers, body: RecordedBody(Data("{}".utf8), contentType: "application/json")))
        try await withShifting("linked", [linked]) { upstream, _, workspace in
            // GIVEN GET /linked recorded with Link, now answered without it but with ETag
            upstream.switchTo(2)
            // WHEN drift runs without and with --header-field
            let unnamed = try await workspace.run(["drift", "Recordings/linked.json"])
            let named = try await workspace.run(["drift", "Recordings/linked.json", "--header-field", "Link", "--header-field", "ETag"])
            // THEN headers are compared only when named: Link's loss is breaking, ETag's arrival additive
            #expect(unnamed.status == 0, "\(unnamed.stderr)")
            #expect(unnamed.stdout.hasSuffix("#0 GET /linked: no drift\nNo drift: 1 interaction checked.\n"), "\(unnamed.stdout)")
            #expect(named.status == 1, "\(named.stderr)")
            #expect(
                named.stdout.hasSuffix(
                    """
                    #0 GET /linked
                      breaking  header Link: present → missing (header removed)
                      additive  header ETag: missing → present (header added)
                    Drift: 1 interaction checked, 1 breaking change, 1 additive change.

                    """), "\(named.stdout)")
        }
    }

    @Test func requestsAreSpacedByTheRate() async throws {
        // GIVEN three GETs
        let gets = (0..<3).map { Interaction(request: RecordedRequest(method: "GET", target: "/any/\($0)"), response: Self.answer(#"{"ok":true}"#)) }
        try await withShifting("three", gets) { upstream, _, workspace in
            // WHEN drift sends them at one a second
            let started = ContinuousClock.now
            let run = try await workspace.run(["drift", "Recordings/three.json", "--rate", "1"])
            // THEN the run lasts at least the two intervals between them (a lower bound: never late, only slower)
            #expect(ContinuousClock.now - started >= .seconds(2))
            #expect(run.status == 0, "\(run.stderr)")
            #expect(upstream.methods.withLock { $0 }.count == 3)
        }
    }

    @Test func help_statesTheDefaultsTheCommandUses() {
        // The help is built from the same constants the command falls back on, so this pins both.
        #expect(DriftCommand.help.options.first { $0.spelling == "--max-wait SECONDS" }?.text == "The longest Retry-After waited out (default: 60).")
        #expect(DriftCommand.defaultRate == 5)
    }
}
