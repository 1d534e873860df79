import Foundation
@testable import MockServer
import Testing

/// Identical requests replay their recordings in order; what follows the last is a policy.
@Suite struct ReplaySequencingTests {
    /// An interaction for `target` answering `status`, with the status also in the body so replays are told apart.
    static func interaction(_ target: String, _ status: Int, method: String = "GET") -> Interaction {
        .stub(method, target, status: status, json: ["n": .number(JSONNumber(status))])
    }

    static func statuses(_ engine: ReplayEngine, _ target: String, times: Int) -> [Int] {
        (0..<times).map { _ in engine.answer(HTTPRequest(method: "GET", target: target)).response?.status ?? -1 }
    }

    @Test(arguments: [
        (AfterLastPolicy?.none, [201, 202, 203, 203, 203]),
        (.repeat, [201, 202, 203, 203, 203]),
        (.cycle, [201, 202, 203, 201, 202]),
        (.fail, [201, 202, 203, 404, 404]),
    ])
    func identicalRequests_replayInOrder_thenFollowThePolicy(policy: AfterLastPolicy?, expected: [Int]) {
        // GIVEN three recordings of the same request
        let cassette = Cassette(
            name: "c", matching: MatchRules(afterLast: policy),
            interactions: [Self.interaction("/x", 201), Self.interaction("/x", 202), Self.interaction("/x", 203)])
        // WHEN it is sent five times THEN the recordings come in order, then the policy applies
        #expect(Self.statuses(ReplayEngine(cassettes: [cassette]), "/x", times: 5) == expected)
    }

    @Test func repeats_areMarkedAsSuch() {
        let engine = ReplayEngine(cassettes: [Cassette(name: "c", interactions: [Self.interaction("/x", 200)])])
        let first = engine.answer(HTTPRequest(method: "GET", target: "/x"))
        let second = engine.answer(HTTPRequest(method: "GET", target: "/x"))
        guard first.interaction != nil, second.interaction != nil else {
            Issue.record("expected matches")
            return
        }
        #expect(!first.isRepeat)
        #expect(second.isRepeat)
        #expect(second.interaction?.index == 0)
    }

    @Test func policyInCode_overridesTheCassettes() {
        let cassette = Cassette(name: "c", matching: MatchRules(afterLast: .repeat), interactions: [Self.interaction("/x", 201)])
        let engine = ReplayEngine(cassettes: [cassette], options: .afterLast(.fail))
        #expect(Self.statuses(engine, "/x", times: 2) == [201, 404])
    }

    @Test func differentRequests_keepTheirOwnSequences() {
        // GIVEN A1, B1, A2 recorded
        let cassette = Cassette(name: "c", interactions: [Self.interaction("/a", 201), Self.interaction("/b", 211), Self.interaction("/a", 202)])
        let engine = ReplayEngine(cassettes: [cassette])
        // WHEN A, A, B are sent THEN A1, A2, B1 answer
        #expect(Self.statuses(engine, "/a", times: 2) + Self.statuses(engine, "/b", times: 1) == [201, 202, 211])
    }

    @Test func overlappingMatches_serveTheEarliestUnused_andRepeatTheLatest() {
        // GIVEN a redacted recording and an exact one, both matching token=abc
        let cassette = Cassette(name: "c", interactions: [Self.interaction("/f?token=<redacted>", 201), Self.interaction("/f?token=abc", 202)])
        let engine = ReplayEngine(cassettes: [cassette])
        // THEN they replay in recorded order, and the latest repeats
        #expect(Self.statuses(engine, "/f?token=abc", times: 3) == [201, 202, 202])
        // AND another token only ever matches the redacted one
        #expect(Self.statuses(engine, "/f?token=zzz", times: 1) == [201])
    }

    @Test func cycle_restartsEveryOverlappingGroup() {
        let cassette = Cassette(
            name: "c", matching: MatchRules(afterLast: .cycle),
            interactions: [Self.interaction("/f?token=<redacted>", 201), Self.interaction("/f?token=abc", 202)])
        #expect(Self.statuses(ReplayEngine(cassettes: [cassette]), "/f?token=abc", times: 5) == [201, 202, 201, 202, 201])
    }

    @Test func severalCassettes_theEarlierServesFirst_andItsPolicyDecidesAfterTheLast() {
        // GIVEN two cassettes answering the same request, the first failing after its last
        let first = Cassette(name: "first", matching: MatchRules(afterLast: .fail), interactions: [Self.interaction("/x", 201)])
        let second = Cassette(name: "second", interactions: [Self.interaction("/x", 202)])
        let engine = ReplayEngine(cassettes: [first, second])
        // THEN the first answers, then the second, then the first's policy (fail) applies
        #expect(Self.statuses(engine, "/x", times: 3) == [201, 202, 404])
    }

    @Test func interactionsAddedInCode_overrideLoadedOnes() {
        // GIVEN a cassette answering /x and /y, and two stubs for /x added in code
        let engine = ReplayEngine(cassettes: [Cassette(name: "c", interactions: [Self.interaction("/x", 200), Self.interaction("/y", 200)])])
        engine.add(.stub("GET", "/x", status: 503, json: ["message": "down"]))
        engine.add(.stub("GET", "/x", status: 502))
        // THEN /x replays the stubs in order and repeats the last; /y still comes from the cassette
        #expect(Self.statuses(engine, "/x", times: 3) == [503, 502, 502])
        #expect(Self.statuses(engine, "/y", times: 1) == [200])
        #expect(engine.preparedCassettes.map(\.cassette).map(\.name) == ["c", ReplayEngine.inCodeCassetteName])
        #expect(engine.preparedCassettes.map(\.cassette)[1].origin == .handWritten)
    }

    @Test func customMatcher_decidesWithinMethodAndPath_inRecordedOrder() {
        // GIVEN a matcher that only looks at one header, and recordings whose queries differ
        let cassette = Cassette(
            name: "c",
            interactions: [
                .stub("GET", "/x?page=1", status: 201, requestHeaders: ["X-Tenant": "a"]),
                .stub("GET", "/x?page=2", status: 202, requestHeaders: ["X-Tenant": "b"]),
                .stub("GET", "/x?page=3", status: 203, requestHeaders: ["X-Tenant": "a"]),
            ])
        let configuration = CassetteServer.Configuration(matcher: { recorded, received in
            recorded.headers["X-Tenant"] == received.headers["X-Tenant"]
        })
        let engine = ReplayEngine(cassettes: [cassette], options: configuration.replay)
        func send(_ tenant: String, _ target: String = "/x?page=9") -> Int {
            engine.answer(HTTPRequest(method: "GET", target: target, headers: ["X-Tenant": tenant])).response?.status ?? -1
        }
        // THEN the query is not compared, tenant a replays 201 then 203 and repeats 203
        let statuses: [Int] = [send("a"), send("a"), send("a"), send("b")]
        #expect(statuses == [201, 203, 203, 202])
        // AND the path still must agree
        #expect(send("a", "/y") == 404)
    }

    @Test func transportFailures_replayAsFailures() {
        let engine = ReplayEngine(cassettes: [Cassette(name: "c", interactions: [.failure("GET", "/down", kind: .reset, message: "lost")])])
        let decision = engine.answer(HTTPRequest(method: "GET", target: "/down"))
        // A recorded reset is reproduced as a reset connection, without a status.
        guard case .reset = decision.reply.action else {
            Issue.record("expected a replayed failure, got \(decision)")
            return
        }
        #expect(decision.status == nil)
        #expect(decision.response == nil)
        #expect(decision.interaction == InteractionReference(cassette: "c", cassetteIndex: 0, index: 0, method: "GET", target: "/down"))
    }

    @Test(arguments: [AfterLastPolicy.repeat, .cycle, .fail])
    func head_looksAtTheGETsNextAnswer_withoutAdvancingIt(policy: AfterLastPolicy) {
        // GIVEN two recorded answers to GET /x
        let engine = ReplayEngine(cassettes: [
            Cassette(
                name: "c", matching: MatchRules(afterLast: policy),
                interactions: [Self.interaction("/x", 201), Self.interaction("/x", 202)])
        ])
        func send(_ method: String) -> Int { engine.answer(HTTPRequest(method: method, target: "/x")).status ?? -1 }
        // WHEN HEADs come between the GETs, before and after the recorded ones are used up
        let statuses = [send("HEAD"), send("GET"), send("HEAD"), send("GET"), send("HEAD"), send("GET")]
        // THEN each HEAD gets what the next GET gets, and the GETs' sequence is the one without HEADs; used up
        // under `fail`, a HEAD is unmatched like the GET
        let expected: [Int] =
            switch policy {
            case .repeat: [201, 201, 202, 202, 202, 202]
            case .cycle: [201, 201, 202, 202, 201, 201]
            case .fail: [201, 201, 202, 202, 404, 404]
            }
        #expect(statuses == expected)
    }
}
