import Dispatch
import Foundation
@testable import MockServer
import Testing

@Suite struct JournalTests {
    /// A journal fed by an engine over a small cassette: two /users pages, a login, and one unmatched request.
    private func exercised() -> (Journal, ReplayEngine) {
        let cassette = Cassette(
            name: "nice",
            interactions: [
                .stub("GET", "/users?page=1"), .stub("GET", "/users?page=2"),
                Interaction(
                    request: RecordedRequest(
                        method: "POST", target: "/login", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                        body: .text("username=ann&password=<redacted>")),
                    response: RecordedResponse(status: 200)),
                .stub("GET", "/feeds"),
            ])
        let engine = ReplayEngine(cassettes: [cassette])
        let journal = Journal()
        let requests = [
            HTTPRequest(method: "GET", target: "/users?page=1"),
            HTTPRequest(method: "GET", target: "/users?page=1"),
            HTTPRequest(
                method: "POST", target: "/login", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("username=ann&password=s3cret".utf8)),
            HTTPRequest(method: "GET", target: "/missing"),
        ]
        for (second, request) in requests.enumerated() {
            journal.append(request, answer: engine.answer(request), at: Date(timeIntervalSince1970: Double(second)))
        }
        return (journal, engine)
    }

    @Test func entries_keepTimeRequestAndOutcome_inOrder() throws {
        let (journal, _) = exercised()
        let entries = journal.entries
        #expect(entries.map(\.sequence) == [0, 1, 2, 3])
        #expect(entries.map(\.time.timeIntervalSince1970) == [0, 1, 2, 3])
        #expect(
            entries.map(\.description) == [
                "#0 GET /users?page=1 → nice interaction 0", "#1 GET /users?page=1 → nice interaction 0",
                "#2 POST /login → nice interaction 2", "#3 GET /missing → unmatched",
            ])
        #expect(entries[0].outcome.status == 200)
        #expect(entries[3].outcome.kind == .unmatched)
        #expect(entries[3].outcome.status == 404)
        #expect(entries[3].outcome.nearMiss?.closest != nil)
    }

    @Test(arguments: [
        (RequestPattern.anyRequest, 4),
        (.get("/users"), 2),
        (.get("/users*"), 2),
        (.any("/u?ers"), 2),
        (.post("/users"), 0),
        (RequestPattern(method: "get", path: "/users"), 2),
        (.get("/users").withQuery("page"), 2),
        (.get("/users").withQuery("page", "1"), 2),
        (.get("/users").withQuery("page", "2"), 0),
        (.post("/login").withBody(containing: "username=ann"), 1),
        (.post("/login").withBody(containing: "username=bob"), 0),
        (.any("*"), 4),
        (.any("/*s*"), 3),
    ])
    func count_ofPattern(pattern: RequestPattern, expected: Int) {
        #expect(exercised().0.count(of: pattern) == expected)
    }

    @Test(arguments: [
        ("/users*", "/users", true), ("/users*", "/users/42/repos", true), ("/users/*", "/users", false),
        ("/users/?", "/users/4", true), ("/users/?", "/users/42", false), ("*/repos", "/users/42/repos", true),
        ("/a*b*c", "/axxbyyc", true), ("/a*b*c", "/axxbyy", false), ("/caf\u{E9}", "/caf%C3%A9", true), ("/a", "/a/", false),
    ])
    func patternPath_isAGlobOverTheDecodedPath(pattern: String, path: String, matches: Bool) {
        #expect(RequestPattern.any(pattern).matches(HTTPRequest(method: "GET", target: path + "?q=1")) == matches)
    }

    @Test func patternDescription_readsLikeTheCall() {
        #expect(RequestPattern.get("/users*").description == "GET /users*")
        #expect(RequestPattern.any("/feeds").withQuery("page", "2").withQuery("debug").description == "any method /feeds with query page=2&debug")
        #expect(RequestPattern.post("/login").withBody(containing: "ann").description == "POST /login with body containing \"ann\"")
        #expect(RequestPattern.anyRequest.description == "any method any path")
    }

    @Test func verifyCalledTimes_passesOrExplains() {
        let (journal, _) = exercised()
        #expect(throws: Never.self) { try journal.verify(.get("/users*"), calledTimes: 2) }
        #expect(throws: Never.self) { try journal.verifyNeverCalled(.any("/photos")) }
        do {
            try journal.verify(.get("/users*"), calledTimes: 1)
            Issue.record("expected a failure")
        } catch {
            #expect(
                error.description == """
                    Expected GET /users* to be called 1 time, but it was called 2 times:
                      #0 GET /users?page=1 → nice interaction 0
                      #1 GET /users?page=1 → nice interaction 0
                    """)
        }
    }

    @Test func verifyCalledTimes_whenNeverCalled_listsWhatWasReceived() {
        let (journal, _) = exercised()
        do {
            try journal.verify(.post("/photos"), calledTimes: 1)
            Issue.record("expected a failure")
        } catch {
            #expect(
                error.description == """
                    Expected POST /photos to be called 1 time, but it was never called. Requests received (4):
                      #0 GET /users?page=1 → nice interaction 0
                      #1 GET /users?page=1 → nice interaction 0
                      #2 POST /login → nice interaction 2
                      #3 GET /missing → unmatched
                    """)
        }
        do {
            try Journal().verify(.post("/photos"), calledTimes: 2)
            Issue.record("expected a failure")
        } catch {
            #expect(error.description == "Expected POST /photos to be called 2 times, but it was never called. Requests received: none.")
        }
    }

    @Test func verifyNeverCalled_listsTheCalls() {
        let (journal, _) = exercised()
        do {
            try journal.verifyNeverCalled(.post("/login"))
            Issue.record("expected a failure")
        } catch {
            #expect(error.description == "Expected POST /login never to be called, but it was called 1 time:\n  #2 POST /login → nice interaction 2")
        }
    }

    @Test func verifyEveryInteractionUsed_listsTheUnusedOnes() {
        let (journal, engine) = exercised()
        do {
            try journal.verifyEveryInteractionUsed(among: engine.interactions)
            Issue.record("expected a failure")
        } catch {
            #expect(
                error.description == """
                    2 of 4 recorded interactions were never used:
                      nice interaction 1 (GET /users?page=2)
                      nice interaction 3 (GET /feeds)
                    """)
        }
        for target in ["/users?page=2", "/feeds"] {
            let request = HTTPRequest(method: "GET", target: target)
            journal.append(request, answer: engine.answer(request))
        }
        #expect(throws: Never.self) { try journal.verifyEveryInteractionUsed(among: engine.interactions) }
    }

    @Test func capacity_dropsTheOldest_butKeepsUsedInteractions() {
        // GIVEN a journal keeping three entries
        let engine = ReplayEngine(cassettes: [Cassette(name: "c", interactions: (0..<10).map { .stub("GET", "/\($0)") })])
        let journal = Journal(capacity: 3)
        // WHEN ten requests are recorded
        for index in 0..<10 {
            let request = HTTPRequest(method: "GET", target: "/\(index)")
            journal.append(request, answer: engine.answer(request))
        }
        // THEN the newest three remain, the drop is counted and said, and used interactions are all known
        #expect(journal.entries.map(\.sequence) == [7, 8, 9])
        #expect(journal.recordedCount == 10)
        #expect(journal.droppedCount == 7)
        #expect(journal.unusedInteractions(among: engine.interactions).isEmpty)
        do {
            try journal.verify(.get("/1"), calledTimes: 1)
            Issue.record("expected a failure: /1 was dropped from the journal")
        } catch {
            #expect(error.description.hasSuffix("(The journal dropped its 7 oldest entries to stay within its limits; counts cover the rest.)"))
        }
    }

    @Test func bodyBudget_dropsTheOldestBodies_keepingTheNewest() {
        let journal = Journal(bodyBudget: 100)
        for index in 0..<5 {
            journal.append(HTTPRequest(method: "POST", target: "/\(index)", body: Data(count: 60)), outcome: .passedThrough(status: 200))
        }
        #expect(journal.entries.map(\.sequence) == [4])
        journal.append(HTTPRequest(method: "POST", target: "/big", body: Data(count: 1_000)), outcome: .passedThrough(status: 200))
        #expect(journal.entries.map(\.request.target) == ["/big"])
    }

    @Test func limits_afterBodyBudgetDrops_keepTheNewestInOrder() {
        // GIVEN a journal of five entries whose body budget a large body exceeds
        let journal = Journal(capacity: 5, bodyBudget: 100)
        for (index, size) in [10, 10, 90, 0, 0, 0, 0].enumerated() {
            journal.append(HTTPRequest(method: "POST", target: "/\(index)", body: Data(count: size)), outcome: .passedThrough(status: 200))
        }
        // THEN the budget dropped the first entry, the capacity the second, and the rest stay in order
        #expect(journal.entries.map(\.sequence) == [2, 3, 4, 5, 6])
        #expect(journal.droppedCount == 2)
    }

    @Test func usedInteractions_anyReference_isRemembered() {
        // GIVEN references inside and far outside the engine's numbering
        let cassette = Cassette(name: "c", interactions: (0..<5).map { .stub("GET", "/\($0)") })
        let journal = Journal()
        for (cassetteIndex, index) in [(0, 3), (-1, 5), (5_000, 1 << 40), (0, -2)] {
            journal.append(
                HTTPRequest(method: "GET", target: "/"),
                outcome: .faultInjected(
                    rule: "reset", interaction: InteractionReference(cassette: "c", cassetteIndex: cassetteIndex, index: index, method: "GET", target: "/")))
        }
        // THEN each is kept without trouble, and only the engine's own counts for its cassettes
        #expect(journal.unusedInteractions(among: ReplayEngine(cassettes: [cassette]).interactions).map(\.index) == [0, 1, 2, 4])
    }

    @Test func outcomes_describeEveryKind() {
        let reference = InteractionReference(cassette: "github", cassetteIndex: 0, index: 3, method: "GET", target: "/users")
        #expect(JournalOutcome.matched(reference, status: 200).description == "github interaction 3")
        #expect(JournalOutcome.faultInjected(rule: "reset,when=first:2", seed: 7, interaction: reference).description == "fault reset,when=first:2 (seed 7)")
        #expect(JournalOutcome.recorded(reference, status: 201).description == "recorded (201)")
        #expect(JournalOutcome.passedThrough(status: 200).description == "passed through (200)")
    }

    @Test func faultOnAMatchedInteraction_countsAsUsed() {
        let cassette = Cassette(name: "c", interactions: [.stub("GET", "/x")])
        let journal = Journal()
        journal.append(
            HTTPRequest(method: "GET", target: "/x"),
            outcome: .faultInjected(
                rule: "reset", interaction: InteractionReference(cassette: "c", cassetteIndex: 0, index: 0, method: "GET", target: "/x")))
        #expect(journal.unusedInteractions(among: ReplayEngine(cassettes: [cassette]).interactions).isEmpty)
    }

    @Test func concurrentRecording_keepsEveryEntry() {
        let journal = Journal()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<200 {
                journal.append(HTTPRequest(method: "GET", target: "/\(thread)/\(index)"), outcome: .passedThrough(status: 200))
            }
        }
        #expect(journal.recordedCount == 1_600)
        #expect(Set(journal.entries.map(\.sequence)) == Set(0..<1_600))
        #expect(journal.count(of: .any("/3/*")) == 200)
    }

    @Test func reset_forgetsEverything() {
        let (journal, engine) = exercised()
        journal.reset()
        #expect(journal.entries.isEmpty)
        #expect(journal.recordedCount == 0)
        #expect(journal.unusedInteractions(among: engine.interactions).count == 4)
    }
}
