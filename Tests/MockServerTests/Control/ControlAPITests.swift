import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import Testing

/// The control API under `/__mockserver/`, through URLSession over loopback as any client would call it.
@Suite struct ControlAPITests {
    static let cassette = Cassette(
        name: "shop",
        interactions: [
            .stub("GET", "/items", json: ["items": [1, 2]]),
            .stub("GET", "/cart", json: ["cart": []]),
        ])

    /// `method target` on `server`, with `headers`: the status, the headers and the body parsed as JSON
    /// (`nil` when it is not).
    static func call(
        _ server: CassetteServer, _ target: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil
    ) async throws -> (status: Int, response: HTTPURLResponse, json: [String: Any]?) {
        var request = URLRequest(url: URL(string: target, relativeTo: server.baseURL)!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await withURLSession { session in try await session.httpData(for: request) }
        return (response.statusCode, response, try? JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func entries(_ json: [String: Any]?) -> [[String: Any]] {
        json?["entries"] as? [[String: Any]] ?? []
    }

    @Test func journal_listsEachRequest_redacted_withItsOutcome_andNeverItsOwnCalls() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { server in
            // Given a matched request carrying credentials, and an unmatched one
            _ = try await Self.call(server, "/items", headers: ["Authorization": "Bearer abc"])
            _ = try await Self.call(server, "/orders?api_key=s3cret")

            // When the journal is read twice
            _ = try await Self.call(server, "/__mockserver/journal")
            let (status, response, json) = try await Self.call(server, "/__mockserver/journal")

            // Then it holds the two requests only, in order, credentials redacted as a cassette holds them
            #expect(status == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json; charset=utf-8")
            let entries = Self.entries(json)
            try #require(entries.count == 2, "\(String(describing: json))")
            #expect(server.journal.recordedCount == 2)
            #expect(entries.map { $0["sequence"] as? Int } == [0, 1])
            #expect(entries[1]["target"] as? String == "/orders?api_key=\(Cassette.urlRedactionPlaceholder)")
            let headers = entries[0]["headers"] as? [[String]] ?? []
            #expect(headers.contains(["Authorization", Cassette.redactionPlaceholder]), "\(headers)")
            #expect(!headers.joined().joined().contains("abc"))
            let matched = try #require(entries[0]["outcome"] as? [String: Any])
            #expect(matched["kind"] as? String == "matched")
            #expect(matched["status"] as? Int == 200)
            let interaction = try #require(matched["interaction"] as? [String: Any])
            #expect(interaction["cassette"] as? String == "shop")
            #expect(interaction["interaction"] as? Int == 0)
            let unmatched = try #require(entries[1]["outcome"] as? [String: Any])
            #expect(unmatched["kind"] as? String == "unmatched")
            #expect(unmatched["status"] as? Int == 404)
            let nearMiss = try #require(unmatched["nearMiss"] as? [String: Any])
            let message = try #require(nearMiss["message"] as? String)
            #expect(message.hasPrefix("No recorded interaction matches GET /orders?api_key=\(Cassette.urlRedactionPlaceholder)."), "\(message)")
            #expect(message.contains("query api_key: recorded nothing, received \"\(Cassette.redactionPlaceholder)\""), "\(message)")
            #expect((nearMiss["request"] as? [String: Any])?["target"] as? String == "/orders?api_key=\(Cassette.urlRedactionPlaceholder)")
            #expect(!"\(entries)".contains("s3cret"))
            #expect(json?["next"] as? Int == 2)
            #expect(json?["dropped"] as? Int == 0)
        }
    }

    @Test func journal_since_givesOnlyLaterEntries_andRefusesWhatIsNotANumber() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { server in
            // Given a journal read before any request: nothing, and 0 as the next `since`
            let (_, _, empty) = try await Self.call(server, "/__mockserver/journal")
            #expect(Self.entries(empty).isEmpty)
            #expect(empty?["next"] as? Int == 0)

            // And three requests
            for target in ["/items", "/cart", "/items"] { _ = try await Self.call(server, target) }

            // When the journal is read from the `next` an earlier read gave (2), then from the new `next`
            let (_, _, later) = try await Self.call(server, "/__mockserver/journal?since=2")
            let next = try #require(later?["next"] as? Int)
            let (_, _, none) = try await Self.call(server, "/__mockserver/journal?since=\(next)")

            // Then the first gives the third request only and 3 as the next; the second gives nothing new
            #expect(Self.entries(later).map { $0["sequence"] as? Int } == [2])
            #expect(Self.entries(later).map { $0["target"] as? String } == ["/items"])
            #expect(next == 3)
            #expect(Self.entries(none).isEmpty)
            #expect(none?["next"] as? Int == 3)

            // And a `since` that is not a whole number of 0 or more is refused with one sentence
            for bad in ["abc", "-1", ""] {
                let (status, _, json) = try await Self.call(server, "/__mockserver/journal?since=\(bad)")
                #expect(status == 400)
                #expect(json?["error"] as? String == "since must be a whole number of 0 or more (the next value the last answer gave), not '\(bad)'.")
            }
        }
    }

    @Test func unmatchedAndUnused_nameTheNearMissesAndTheInteractionsNoRequestUsed() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { server in
            // Given one request for /items and one for a path nothing recorded
            _ = try await Self.call(server, "/items")
            _ = try await Self.call(server, "/cart/42")

            // When the near misses and the unused interactions are read
            let (unmatchedStatus, _, unmatched) = try await Self.call(server, "/__mockserver/unmatched")
            let (unusedStatus, _, unused) = try await Self.call(server, "/__mockserver/unused")

            // Then the near miss is the 404 body's, and /cart is the one interaction unused, of two
            #expect(unmatchedStatus == 200)
            #expect(unmatched?["count"] as? Int == 1)
            let misses = unmatched?["unmatched"] as? [[String: Any]] ?? []
            try #require(misses.count == 1)
            #expect((misses[0]["request"] as? [String: Any])?["target"] as? String == "/cart/42")
            #expect(misses[0]["error"] as? String == "unmatched request")
            #expect(unusedStatus == 200)
            #expect(unused?["total"] as? Int == 2)
            let unusedList = unused?["unused"] as? [[String: Any]] ?? []
            #expect(unusedList.map { $0["target"] as? String } == ["/cart"])
            #expect(unusedList.map { $0["interaction"] as? Int } == [1])
        }
    }

    @Test func unused_asksAboutTheCassettesServedNow_afterASwitch() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { server in
            // Given a request for /items, then a switch to a cassette of one other interaction
            _ = try await Self.call(server, "/items")
            try server.replaceCassettes(with: [Cassette(name: "empty-cart", interactions: [.stub("GET", "/cart", json: ["cart": []])])])

            // When the unused interactions are read
            let (_, _, unused) = try await Self.call(server, "/__mockserver/unused")

            // Then they are the new cassette's
            let list = unused?["unused"] as? [[String: Any]] ?? []
            #expect(list.map { $0["cassette"] as? String } == ["empty-cart"])
            #expect(unused?["total"] as? Int == 1)
        }
    }

    @Test func unknownEndpoint_is404ListingTheEndpoints_andAWrongMethod405WithAllow() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { server in
            // When a path under the prefix that is no endpoint, and the journal with POST, are called
            let (unknown, _, unknownJSON) = try await Self.call(server, "/__mockserver/mappings")
            let (wrong, response, wrongJSON) = try await Self.call(server, "/__mockserver/journal", method: "POST")

            // Then each gets its status and one sentence, and neither reaches the cassettes or the journal
            #expect(unknown == 404)
            #expect(
                unknownJSON?["error"] as? String
                    == "there is no control endpoint GET /__mockserver/mappings; there are \(ControlAPI.endpoints.joined(separator: ", ")).")
            #expect(wrong == 405)
            #expect(response.value(forHTTPHeaderField: "Allow") == "GET")
            #expect(wrongJSON?["error"] as? String == "/__mockserver/journal takes GET, not POST.")
            #expect(server.journal.recordedCount == 0)
            #expect(server.unmatchedRequests.isEmpty)
        }
    }

    @Test func faults_neverReachTheControlAPI() async throws {
        // Given a plan that answers every request 503
        let configuration = CassetteServer.Configuration(faults: .plan(try FaultPlan.parse(specs: "status=503")))
        try await withMockServer(cassettes: [Self.cassette], configuration: configuration) { server in
            // When a cassette request and a control request are sent
            let (faulted, _, _) = try await Self.call(server, "/items")
            let (control, _, json) = try await Self.call(server, "/__mockserver/journal")

            // Then the first is faulted, the second answered, showing the fault it applied
            #expect(faulted == 503)
            #expect(control == 200)
            let outcome = Self.entries(json).first?["outcome"] as? [String: Any]
            #expect(outcome?["kind"] as? String == "fault")
            #expect((outcome?["fault"] as? String)?.contains("'status=503'") == true, "\(String(describing: outcome))")
            #expect(outcome?["seed"] as? Int == 1)
        }
    }

    @Test func aRoutedRequestUnderThePrefix_isTheAppsOwn_matchedAsAnyOther() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { server in
            // When a request an app sent to https://api.example.com/__mockserver/journal arrives routed
            let (status, response, _) = try await Self.call(
                server, "/__mockserver/journal", headers: [HTTPRequest.routedHostHeader: "api.example.com"])

            // Then the cassettes answer it (nothing recorded: the 404 of an unmatched request), and it is journaled
            #expect(status == 404)
            #expect(response.value(forHTTPHeaderField: NearMiss.unmatchedHeader) == "1")
            #expect(server.journal.recordedCount == 1)
        }
    }

    @Test func withAToken_everyControlRequestMustCarryIt() async throws {
        var configuration = CassetteServer.Configuration(faults: .none)
        configuration.controlToken = "t0k3n"
        try await withMockServer(cassettes: [Self.cassette], configuration: configuration) { server in
            // When the journal is asked for without the token, with a wrong one and with the right one
            let (missing, _, missingJSON) = try await Self.call(server, "/__mockserver/journal")
            let (wrong, _, _) = try await Self.call(server, "/__mockserver/journal", headers: ["Authorization": "Bearer nope"])
            let (right, _, _) = try await Self.call(server, "/__mockserver/journal", headers: ["Authorization": "Bearer t0k3n"])

            // Then only the last is answered; the others get 403 and the sentence that says how
            #expect(missing == 403)
            #expect(missingJSON?["error"] as? String == "the control API needs the server's token, as the header Authorization: Bearer TOKEN.")
            #expect(wrong == 403)
            #expect(right == 200)
        }
    }

    @Test func beyondLoopback_withoutAToken_theServerRefusesToStart_andAnEmptyTokenIsRefused() async throws {
        // Given a server configured to listen on every address, without a token
        var configuration = CassetteServer.Configuration(faults: .none)
        configuration.server = HTTPServer.Configuration(host: "0.0.0.0")
        let server = try CassetteServer(cassettes: [Self.cassette], configuration: configuration)

        // When it is started, then it refuses, before binding anything
        let error = await #expect(throws: MockServerError.self) { try await server.start() }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.description.contains("give it a control token, or listen on 127.0.0.1") == true, "\(String(describing: error))")
        #expect(server.baseURL == nil)

        // And an empty token is refused when the server is created
        var empty = CassetteServer.Configuration(faults: .none)
        empty.controlToken = ""
        #expect(throws: MockServerError.self) { try CassetteServer(cassettes: [Self.cassette], configuration: empty) }
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("127.8.9.10", true), ("::1", true), ("::ffff:127.0.0.1", true), ("localhost", true),
        ("0.0.0.0", false), ("10.0.0.1", false), ("::", false), ("::ffff:10.0.0.1", false), ("128.0.0.1", false),
    ])
    func loopback_isThe127NetworkAndColonColonOne(address: String, isLoopback: Bool) {
        #expect(ControlAPI.isLoopback(address) == isLoopback)
    }

    @Test(arguments: [
        ("query api_key", "\"k\"", "\"<redacted>\""), ("form field password", "\"p\"", "\"<redacted>\""),
        ("part token filename", "\"t\"", "\"<redacted>\""), ("header Authorization", "\"Bearer x\"", "\"<redacted>\""),
        ("$.user.password", "\"p\"", "\"<redacted>\""), ("$.items[2].secret", "\"s\"", "\"<redacted>\""),
        ("body", "\"a=1&password=p\"", "\"a=1&password=%3Credacted%3E\""),
        ("query page", "\"2\"", "\"2\""), ("$.user.name", "\"n\"", "\"n\""), ("header Accept", "\"*/*\"", "\"*/*\""),
        ("path", "/x", "/x"),
    ])
    func nearMissDifference_hidesWhatWasReceivedAtASecretsPlace(location: String, received: String, shown: String) {
        // Given a difference as a near miss lists it, when it is redacted by the default rules
        let difference = RequestDifference(location, recorded: nil, received: received).redacted(by: .default)

        // Then its received value is hidden exactly where the place names a secret
        #expect(difference.received == shown)
        #expect(difference.location == location)
    }

    /// The `shop` cassette with an error template, `maintenance`, for service-error rules.
    static let shopWithTemplate: Cassette = {
        var shop = cassette
        shop.errorTemplates["maintenance"] = RecordedResponse(status: 503, headers: ["Content-Type": "application/json"], body: .json(["error": "maintenance"]))
        return shop
    }()

    @Test func faults_putBetweenTwoRequestsOfOneKeepAliveConnection_faultTheSecondOnly_andDeleteClearsThem() async throws {
        try await withMockServer(cassettes: [Self.shopWithTemplate], configuration: .init(faults: .none)) { server in
            // Given one connection, whose first request is answered as recorded
            let client = try RawHTTPClient(try #require(server.baseURL))
            let items = "GET /items HTTP/1.1\r\nHost: localhost\r\n\r\n"
            try client.send(items)
            let first = try await client.readResponse()

            // When a plan is put through the control API, with a seed, and the same connection asks again
            let (putStatus, _, put) = try await Self.call(
                server, "/__mockserver/faults?seed=9", method: "PUT", body: "service-error=maintenance,path=/items; reset,path=/cart")
            try client.send(items)
            let second = try await client.readResponse()

            // Then the second answer is the template's, the plan is shown as the environment spells it
            #expect(first.status == 200)
            #expect(putStatus == 200)
            #expect(put?["rules"] as? String == "service-error=maintenance,path=/items; reset,path=/cart")
            #expect(put?["seed"] as? Int == 9)
            #expect(second.status == 503)
            #expect(second.bodyText == #"{"error":"maintenance"}"#)
            let (_, _, shown) = try await Self.call(server, "/__mockserver/faults")
            #expect(shown?["rules"] as? String == put?["rules"] as? String)

            // And after DELETE the same connection is answered as recorded again, byte for byte as the first
            let (deleteStatus, _, deleted) = try await Self.call(server, "/__mockserver/faults", method: "DELETE")
            try client.send(items)
            let third = try await client.readResponse()
            #expect(deleteStatus == 200)
            #expect(deleted?["rules"] is NSNull)
            #expect(third.status == 200)
            #expect(third.body == first.body)
            #expect(server.faultPlan == nil)
        }
    }

    @Test func faults_aJSONPlanIsTakenAsAPlanFile() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { server in
            // When a plan file's JSON is put
            let (status, _, json) = try await Self.call(
                server, "/__mockserver/faults", method: "PUT", body: #"{"seed": 5, "rules": [{"fault": "status", "status": 502}]}"#)

            // Then it is in force, with its seed
            #expect(status == 200, "\(String(describing: json))")
            #expect(json?["rules"] as? String == "status=502")
            #expect(json?["seed"] as? Int == 5)
            let (faulted, _, _) = try await Self.call(server, "/items")
            #expect(faulted == 502)
        }
    }

    @Test(arguments: [
        ("explode", "'explode' is not a fault kind"), ("service-error=nope", "no cassette served has an error template named 'nope'"),
        ("", "give the fault rules as the body"), ("status=503&seed", "status takes an HTTP status code"),
    ])
    func faults_aPlanThatCannotApply_is400WithOneSentence_andThePlanInForceStays(body: String, says: String) async throws {
        // Given a server under status=500
        let configuration = CassetteServer.Configuration(faults: .plan(try FaultPlan.parse(specs: "status=500")))
        try await withMockServer(cassettes: [Self.cassette], configuration: configuration) { server in
            // When a bad plan is put
            let (status, _, json) = try await Self.call(server, "/__mockserver/faults", method: "PUT", body: body)

            // Then it is refused with one sentence naming what is wrong, and status=500 still applies
            #expect(status == 400)
            let sentence = try #require(json?["error"] as? String)
            #expect(sentence.contains(says), "\(sentence)")
            #expect(sentence.hasSuffix("."))
            #expect(!sentence.contains("\n"))
            let (next, _, _) = try await Self.call(server, "/items")
            #expect(next == 500)
            #expect(server.faultPlan?.description == "seed=1: status=500")
        }
    }

    @Test func faults_aBadSeed_is400_andAWrongMethod405() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { server in
            let (seed, _, seedJSON) = try await Self.call(server, "/__mockserver/faults?seed=x", method: "PUT", body: "status=503")
            let (post, response, _) = try await Self.call(server, "/__mockserver/faults", method: "POST", body: "status=503")
            #expect(seed == 400)
            #expect(seedJSON?["error"] as? String == "seed must be a whole number of 0 or more, not 'x'.")
            #expect(post == 405)
            #expect(response.value(forHTTPHeaderField: "Allow") == "GET, PUT, DELETE")
            #expect(server.faultPlan == nil)
        }
    }

    @Test func faults_inARecordingMode_areRefused_withTheServersSentence() async throws {
        // Given a recording server in front of an upstream (another server on loopback)
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { upstream in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("control-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: file) }
            var configuration = CassetteServer.Configuration(faults: .none, mode: .record)
            configuration.recording = RecordingOptions(upstream: try Upstream(upstream.baseURL!), file: file)
            try await withMockServer(cassettes: [], configuration: configuration) { recorder in
                // When a plan is put
                let (status, _, json) = try await Self.call(recorder, "/__mockserver/faults", method: "PUT", body: "status=503")
                let (cleared, _, _) = try await Self.call(recorder, "/__mockserver/faults", method: "DELETE")

                // Then it is refused, clearing too, and the control requests were neither forwarded nor journaled
                #expect(status == 400)
                #expect(cleared == 400)
                #expect((json?["error"] as? String)?.contains("only a server in replay mode takes a fault plan") == true, "\(String(describing: json))")
                #expect(upstream.journal.recordedCount == 0)
                #expect(recorder.journal.recordedCount == 0)
            }
        }
    }

    @Test func reset_replaysSequencesFromTheirFirstAnswer_andEmptiesTheJournalAndTheNearMisses() async throws {
        // Given a sequence of two recorded answers, both used, and an unmatched request
        let sequence = Cassette(name: "counter", interactions: [.stub("GET", "/n", json: ["n": 1]), .stub("GET", "/n", json: ["n": 2])])
        var configuration = CassetteServer.Configuration(faults: .none)
        configuration.matching.afterLast = .fail
        try await withMockServer(cassettes: [sequence], configuration: configuration) { server in
            _ = try await Self.call(server, "/n")
            _ = try await Self.call(server, "/n")
            _ = try await Self.call(server, "/missing")

            // When the control API resets
            let (status, _, answer) = try await Self.call(server, "/__mockserver/reset", method: "POST")
            let (_, _, journal) = try await Self.call(server, "/__mockserver/journal")
            let (_, _, unmatched) = try await Self.call(server, "/__mockserver/unmatched")
            let (again, _, first) = try await Self.call(server, "/n")

            // Then the journal and near misses are empty, and the sequence answers its first again
            #expect(status == 200)
            #expect(answer?["reset"] as? [String] == ["sequences", "journal", "unmatched"])
            #expect(Self.entries(journal).isEmpty)
            #expect(unmatched?["count"] as? Int == 0)
            #expect(again == 200)
            #expect(first?["n"] as? Int == 1)
            #expect(server.journal.recordedCount == 1)
        }
    }

    @Test func journal_timing_givesEachEntrysDuration_andTheDelayALatencyFaultGaveIt() async throws {
        // Given a plan delaying the first request by 150 ms
        let configuration = CassetteServer.Configuration(faults: .plan(try FaultPlan.parse(specs: "latency=150ms,when=first:1")))
        try await withMockServer(cassettes: [Self.cassette], configuration: configuration) { server in
            _ = try await Self.call(server, "/items")
            _ = try await Self.call(server, "/items")

            // When the journal is read
            let (_, _, json) = try await Self.call(server, "/__mockserver/journal")

            // Then the delayed one says 150 ms of delay, the other none, and both how long the server took
            let timings = Self.entries(json).map { $0["timing"] as? [String: Any] }
            try #require(timings.count == 2)
            #expect(timings[0]?["delayMs"] as? Double == 150)
            #expect(timings[1]?["delayMs"] as? Double == 0)
            for timing in timings {
                let duration = try #require(timing?["durationMs"] as? Double)
                #expect(duration >= 0 && duration < 150, "\(String(describing: timing))")
            }
            #expect(server.journal.entries[1].timing.duration > .zero)
        }
    }

    @Test(arguments: [
        (Duration.zero, "0"), (.milliseconds(200), "200"), (.microseconds(12_345), "12.345"), (.microseconds(1_500), "1.5"),
        (.microseconds(42), "0.042"), (.nanoseconds(999), "0"), (.seconds(3), "3000"),
    ])
    func timing_isInMillisecondsToTheMicrosecond(duration: Duration, spelled: String) {
        #expect(ControlJSON.milliseconds(duration).compactText == spelled)
    }

    @Test func cassettes_listsTheCassettesServed_butNotTheInteractionsAddedInCode() async throws {
        // Given a cassette its author named in-code, and an interaction added in code
        let named = Cassette(name: ReplayEngine.inCodeCassetteName, interactions: [.stub("GET", "/named", json: [:])])
        try await withMockServer(cassettes: [named, Self.cassette], configuration: .init(faults: .none)) { server in
            server.add(.stub("GET", "/added", json: [:]))
            let (status, _, json) = try await Self.call(server, "/__mockserver/cassettes")
            #expect(status == 200)
            #expect(json?["served"] as? [String] == [ReplayEngine.inCodeCassetteName, "shop"])
        }
    }
}
