import Foundation
@testable import MockServer
@testable import MockServerWire
import Testing

/// WebSocket faults carried out on a replayed conversation, each through a real loopback socket.
@Suite struct WebSocketFaultTests {
    /// A conversation the server opens (three text messages, then a close 1000) and a plain HTTP interaction.
    static let cassette = """
        {"format": "servicereplay-cassette", "version": 3, "name": "ticks", "interactions": [
          {"request": {"method": "GET", "target": "/ticks"},
           "webSocket": {"response": {"status": 101},
             "messages": [{"from": "server", "offsetMs": 5, "text": "a"},
                          {"from": "server", "offsetMs": 10, "text": "b"},
                          {"from": "server", "offsetMs": 15, "text": "c"}],
             "close": {"by": "server", "code": 1000, "reason": "done", "offsetMs": 20}}},
          {"request": {"method": "GET", "target": "/price"},
           "response": {"status": 200, "headers": [["Content-Type", "application/json"]], "body": {"json": {"price": 1}}}}
        ]}
        """

    /// Runs `body` against a server replaying ``cassette`` instantly under the fault specs `specs` and `seed`.
    static func withServer(
        _ specs: String, seed: UInt64 = FaultPlan.defaultSeed, timing: StreamTiming = .instant, _ body: (CassetteServer, Int) async throws -> Void
    ) async throws {
        let plan = try FaultPlan.parse(specs: specs, seed: seed)
        let server = try CassetteServer(
            cassettes: [try Cassette(jsonData: Data(cassette.utf8), source: "ticks.json")],
            configuration: CassetteServer.Configuration(faults: .plan(plan), streamTiming: timing))
        let base = try await server.start()
        do {
            try await body(server, try #require(base.port))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    static func connect(_ port: Int, path: String = "/ticks") async throws -> WebSocketClient {
        try await onThread { try WebSocketClient(host: "127.0.0.1", port: port, path: path) }
    }

    /// The handshake's error when the server does not upgrade `path`.
    static func refusal(_ port: Int, path: String = "/ticks") async -> WebSocketClientError? {
        do {
            let client = try await connect(port, path: path)
            client.closeSocket()
            return nil
        } catch let error as WebSocketClientError {
            return error
        } catch {
            return nil
        }
    }

    /// A plain GET of `/price` on a connection of its own: its status.
    static func getPrice(_ port: Int) async throws -> Int {
        let raw = try RawHTTPClient(port: port)
        defer { raw.close() }
        try raw.send("GET /price HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        return try await raw.readResponse().status
    }

    static let recordedEvents: [WebSocketClientEvent] = [
        .message(.text("a")), .message(.text("b")), .message(.text("c")), .close(WebSocketClose(code: 1000, reason: "done")),
    ]

    @Test func drop_afterTwoMessages_theClientSeesTwoMessagesThenTheEnd_andTheJournalSaysWhatStruck() async throws {
        try await Self.withServer("ws-drop=2") { server, port in
            // When a client upgrades
            let client = try await Self.connect(port)
            defer { client.closeSocket() }
            // Then it reads the first two messages, then the connection ends without a close frame
            #expect(try await client.next() == .message(.text("a")))
            #expect(try await client.next() == .message(.text("b")))
            #expect(try await client.next() == .ended)
            // And the journal names the rule, and its transcript what struck
            let entry = try #require(server.journal.entries.first)
            #expect(entry.outcome.kind == .faultInjected)
            #expect(entry.outcome.faultRule == "rule 1 'ws-drop=2' on match 1")
            #expect(entry.outcome.status == 101)
            let snapshot = try #require(entry.outcome.webSocket).snapshot
            #expect(snapshot.note == "fault ws-drop=2 after 2 server messages")
            #expect(snapshot.messages.count == 2)
        }
    }

    @Test func close1011_afterOneMessage_theClientGetsTheCloseFrame() async throws {
        try await Self.withServer("ws-close=1011,after=1") { _, port in
            let client = try await Self.connect(port)
            defer { client.closeSocket() }
            #expect(try await client.next() == .message(.text("a")))
            #expect(try await client.next() == .close(WebSocketClose(code: 1011, reason: "MockServer fault: close 1011")))
        }
    }

    @Test func malformedFrame_afterOneMessage_theClientRefusesIt() async throws {
        try await Self.withServer("ws-malformed=1") { _, port in
            let client = try await Self.connect(port)
            defer { client.closeSocket() }
            #expect(try await client.next() == .message(.text("a")))
            // Then the next frame breaks the protocol
            do {
                let event = try await client.next()
                Issue.record("expected a protocol violation, read \(event)")
            } catch let error as WebSocketClientError {
                guard case .protocolViolation = error else {
                    Issue.record("expected a protocol violation, got \(error)")
                    return
                }
            }
        }
    }

    @Test func stall_afterOneMessage_theClientReadsNothingMore() async throws {
        try await Self.withServer("ws-stall=1") { server, port in
            let client = try await Self.connect(port)
            defer { client.closeSocket() }
            #expect(try await client.next() == .message(.text("a")))
            // Then the player stalls: it notes the fault, leaves the conversation unfinished, and only waits for the
            // client from then on (it notes each message before sending it, so "b" would be in the transcript). The
            // player runs on its own task: its transcript is polled, bounded at 60 s.
            let transcript = try #require(server.journal.entries.first?.outcome.webSocket)
            var snapshot = transcript.snapshot
            for _ in 0..<3000 where snapshot.ending == nil {
                try await Task.sleep(for: .milliseconds(20))
                snapshot = transcript.snapshot
            }
            #expect(snapshot.note == "fault ws-stall=1 after 1 server message")
            #expect(snapshot.ending == .unfinished)
            #expect(snapshot.messages.map(\.from) == [.server])
            // And nothing more comes: every frame the server sent arrives before the end that stopping it brings
            await server.stop()
            #expect(try await client.next() == .ended)
        }
    }

    @Test func delay_fromTheSecondMessage_delaysEachLaterMessage() async throws {
        try await Self.withServer("ws-delay=150ms,after=1") { _, port in
            let start = ContinuousClock.now
            let client = try await Self.connect(port)
            defer { client.closeSocket() }
            // Then every message still comes, in order, "b" and "c" each 150 ms later than recorded (a lower bound only)
            for expected in Self.recordedEvents { #expect(try await client.next() == expected) }
            #expect(ContinuousClock.now - start >= .milliseconds(300))
        }
    }

    @Test func statusOnTheUpgrade_refusesIt_withThatStatus_andNoSocket() async throws {
        try await Self.withServer("status=403") { server, port in
            // When a client asks for the upgrade
            let error = await Self.refusal(port)
            // Then it gets the 403, not a 101
            guard case .rejected(let status, _, _)? = error else {
                Issue.record("expected a refused handshake, got \(String(describing: error))")
                return
            }
            #expect(status == 403)
            let entry = try #require(server.journal.entries.first)
            #expect(entry.outcome.kind == .faultInjected)
            #expect(entry.outcome.webSocket == nil)
        }
    }

    // Faults that keep the engine's answer keep its conversation: it plays after the 101 they delay or leave alone.
    @Test(arguments: ["latency=50ms", "throttle=1kbps", "corrupt-body", "truncate=body:3"])
    func faultThatKeepsTheAnswer_stillPlaysTheConversation(spec: String) async throws {
        try await Self.withServer(spec) { server, port in
            let client = try await Self.connect(port)
            defer { client.closeSocket() }
            for expected in Self.recordedEvents { #expect(try await client.next() == expected) }
            #expect(server.journal.entries.first?.outcome.kind == .faultInjected)
        }
    }

    @Test func webSocketRule_neverFiresOnPlainHTTP_norCountsIt() async throws {
        try await Self.withServer("ws-drop,when=first:1") { server, port in
            // Given two plain GETs first
            #expect(try await Self.getPrice(port) == 200)
            #expect(try await Self.getPrice(port) == 200)
            // When two conversations follow
            let first = try await Self.connect(port)
            defer { first.closeSocket() }
            #expect(try await first.next() == .ended)
            let second = try await Self.connect(port)
            defer { second.closeSocket() }
            // Then the rule counted conversations: the first is dropped at once, the second plays as recorded
            for expected in Self.recordedEvents { #expect(try await second.next() == expected) }
            let kinds = server.journal.entries.map(\.outcome.kind)
            #expect(kinds == [.matched, .matched, .faultInjected, .matched])
        }
    }

    @Test func webSocketRule_onAnUpgradeNoConversationAnswers_leavesThe404_andTheJournalSaysItCouldNotApply() async throws {
        try await Self.withServer("ws-drop") { server, port in
            let error = await Self.refusal(port, path: "/elsewhere")
            guard case .rejected(404, _, _)? = error else {
                Issue.record("expected the near miss's 404, got \(String(describing: error))")
                return
            }
            let entry = try #require(server.journal.entries.first)
            #expect(entry.outcome.kind == .faultInjected)
            #expect(entry.outcome.faultRule == "rule 1 'ws-drop' on match 1, not applied: the answer is no recorded WebSocket conversation")
            #expect(entry.outcome.status == 404)
            #expect(server.unmatchedRequests.count == 1)
        }
    }

    @Test func probabilityRule_decidesTheSameConversations_forTheSameSeed() async throws {
        // Given a rule that drops about half of the conversations, under one seed, served twice
        func dropped(seed: UInt64) async throws -> [Bool] {
            var pattern: [Bool] = []
            try await Self.withServer("ws-drop,when=p:0.5", seed: seed) { _, port in
                for _ in 0..<8 {
                    let client = try await Self.connect(port)
                    defer { client.closeSocket() }
                    pattern.append(try await client.next() == .ended)
                }
            }
            return pattern
        }
        let first = try await dropped(seed: 42)
        let again = try await dropped(seed: 42)
        // Then both runs drop the same conversations, and the seed drops some but not all
        #expect(first == again)
        #expect(first.contains(true) && first.contains(false), "\(first)")
    }

    @Test func webSocketRuleOverCassettesWithoutAConversation_failsTheStart_namingTheRule() async throws {
        // Given cassettes that hold no conversation, and a plan with a WebSocket rule
        let http = Cassette(name: "bare", interactions: [.stub("GET", "/thing", json: .object([:]))])
        let plan = try FaultPlan.parse(specs: "status=503,when=first:1; ws-close=1011,after=2")
        // When a server starts with them
        let error = await #expect(throws: MockServerError.self) {
            try await withMockServer(cassettes: [http], configuration: .init(faults: .plan(plan))) { _ in }
        }
        // Then it fails with one sentence naming the rule
        #expect(error?.code == .invalidFaultPlan)
        #expect(
            error?.description
                == "rule 2 ('ws-close=1011,after=2'): no cassette served holds a WebSocket conversation it selects, and WebSocket faults apply only to a recorded conversation's upgrade"
        )
    }

    @Test func webSocketRuleAimedAtAnotherAPI_byPath_isLeftOut() async throws {
        // Given a suite-wide plan whose WebSocket rule selects none of these cassettes' requests
        let http = Cassette(name: "bare", interactions: [.stub("GET", "/thing", json: .object([:]))])
        let plan = try FaultPlan.parse(specs: "ws-drop,path=/socket*")
        // Then the server starts and answers as recorded
        try await withMockServer(cassettes: [http], configuration: .init(faults: .plan(plan))) { server in
            let raw = try RawHTTPClient(server.baseURL!)
            defer { raw.close() }
            try raw.send("GET /thing HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try await raw.readResponse().status == 200)
        }
    }
}
