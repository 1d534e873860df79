import Foundation
@testable import MockServer
@testable import MockServerWire
import Testing

/// A recorded WebSocket conversation replayed by a ``CassetteServer`` through a real loopback socket.
@Suite struct ConversationReplayTests {
    /// A client says hello; the server answers with text 10 ms later and binary 40 ms after the upgrade, then closes.
    static let cassette = """
        {"format": "servicereplay-cassette", "version": 3, "name": "prices", "interactions": [
          {"request": {"method": "GET", "target": "/stream?pair=BTC"},
           "webSocket": {"response": {"status": 101, "headers": [["Upgrade", "websocket"], ["Connection", "Upgrade"], ["Sec-WebSocket-Accept", "recorded"], ["X-Served-By", "edge-7"]]},
             "messages": [{"from": "client", "text": "{\\"subscribe\\": \\"BTC\\", \\"id\\": 1}"},
                          {"from": "server", "offsetMs": 10, "text": "{\\"price\\":97000}"},
                          {"from": "server", "offsetMs": 40, "base64": "AAEC/w=="}],
             "close": {"by": "server", "code": 4001, "reason": "market closed", "offsetMs": 45}}}
        ]}
        """

    static func withServer(
        _ text: String = cassette, timing: StreamTiming = .recorded, _ body: (CassetteServer, Int) async throws -> Void
    ) async throws {
        let server = try CassetteServer(
            cassettes: [try Cassette(jsonData: Data(text.utf8), source: "prices.json")],
            configuration: CassetteServer.Configuration(streamTiming: timing))
        let base = try await server.start()
        do {
            try await body(server, base.port!)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    static func connect(_ port: Int, path: String = "/stream?pair=BTC") async throws -> WebSocketClient {
        try await onThread { try WebSocketClient(host: "127.0.0.1", port: port, path: path) }
    }

    @Test func conversation_replaysInOrder_afterTheClientsMessage_withItsTiming_thenClosesAsRecorded() async throws {
        try await Self.withServer { server, port in
            let client = try await Self.connect(port)
            defer { client.closeSocket() }
            // The recorded 101: its headers in order, the accept computed for this client's key (checked by the client)
            #expect(client.response.headers.lines.map(\.name).prefix(4) == ["Upgrade", "Connection", "Sec-WebSocket-Accept", "X-Served-By"])
            #expect(client.response.headers["X-Served-By"] == "edge-7")
            // When the client sends its message (JSON compared by value: other spacing and key order match)
            let sent = ContinuousClock.now
            try client.send(.text(#"{"id":1,"subscribe":"BTC"}"#))
            // Then the server's messages follow in order, the binary one its recorded 30 ms after the text at least
            #expect(try await client.next() == .message(.text(#"{"price":97000}"#)))
            #expect(try await client.next() == .message(.binary(Data([0, 1, 2, 255]))))
            #expect(ContinuousClock.now - sent >= .milliseconds(40))
            // And the recorded close, code and reason
            #expect(try await client.next() == .close(WebSocketClose(code: 4001, reason: "market closed")))
            try client.close(code: 4001)
            #expect(server.unmatchedRequests.isEmpty)
            // And the journal holds the conversation
            let entry = try #require(server.journal.entries.first)
            // (noted before each was sent, so complete once the client read the close)
            let snapshot = try #require(entry.outcome.webSocket).snapshot
            #expect(snapshot.messages.map(\.from) == [.client, .server, .server])
            guard case .closed(.server, 4001, "market closed", _)? = snapshot.ending else {
                Issue.record("expected the recorded close in the journal, found \(String(describing: snapshot.ending))")
                return
            }
            // And the control API shows it: each message with its side and payload, and the close
            let raw = try RawHTTPClient(port: port)
            defer { raw.close() }
            try raw.send("GET /__mockserver/journal HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let journal = try CassetteJSON(parsing: try await raw.readResponse().body)
            guard case .object(let page) = journal, case .array(let entries)? = page["entries"], case .object(let first)? = entries.first,
                case .object(let outcome)? = first["outcome"], case .object(let socket)? = outcome["webSocket"]
            else {
                Issue.record("expected the conversation in the control API's journal: \(journal)")
                return
            }
            #expect(socket["messageCount"] == .number(JSONNumber(3)))
            #expect(socket["open"] == .bool(false))
            guard case .object(let close)? = socket["close"], case .array(let messages)? = socket["messages"] else {
                Issue.record("expected messages and a close: \(socket)")
                return
            }
            #expect(close["code"] == .number(JSONNumber(4001)))
            #expect(messages.count == 3)
            // And the journal's HAR holds the conversation as browsers write one
            let har = try RawHTTPClient(port: port)
            defer { har.close() }
            try har.send("GET /__mockserver/journal.har HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let document = try JSONDecoder().decode(HARDocument.self, from: try await har.readResponse().body)
            let harEntry = try #require(document.log.entries.first)
            #expect(harEntry.resourceType == "websocket")
            #expect(harEntry.webSocketMessages?.map(\.type) == ["send", "receive", "receive"])
            #expect(harEntry.webSocketEnding?.code == 4001)
        }
    }

    @Test func unrecordedClientMessage_closesWith1008_namingTheDifference_andIsAnUnmatchedRequest() async throws {
        try await Self.withServer { server, port in
            let client = try await Self.connect(port)
            defer { client.closeSocket() }
            try client.send(.text(#"{"subscribe": "ETH", "id": 1}"#))
            guard case .close(let close) = try await client.next() else {
                Issue.record("expected a close frame")
                return
            }
            #expect(close.code == 1008)
            #expect(close.reason == #"message 0 $.subscribe: recorded "BTC", received "ETH""#)
            let nearMiss = try #require(server.unmatchedRequests.first)
            #expect(nearMiss.description.contains(#"message 0 $.subscribe: recorded "BTC", received "ETH""#))
            #expect(nearMiss.description.contains("GET /stream?pair=BTC"))
        }
    }

    @Test func instantTiming_sendsWithoutTheRecordedGaps() async throws {
        try await Self.withServer(timing: .instant) { _, port in
            let client = try await Self.connect(port)
            defer { client.closeSocket() }
            try client.send(.text(#"{"subscribe": "BTC", "id": 1}"#))
            #expect(try await client.next() == .message(.text(#"{"price":97000}"#)))
            #expect(try await client.next() == .message(.binary(Data([0, 1, 2, 255]))))
            guard case .close = try await client.next() else {
                Issue.record("expected the recorded close")
                return
            }
        }
    }

    @Test func plainGETToTheSocket_isRefused_asAServerThatSpeaksWebSocketRefusesIt() async throws {
        try await Self.withServer { _, port in
            let raw = try RawHTTPClient(port: port)
            defer { raw.close() }
            try raw.send("GET /stream?pair=BTC HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let response = try await raw.readResponse()
            #expect(response.status == 400)
        }
    }

    @Test(arguments: [
        ("https://evil.example", 403), ("null", 403), ("http://localhost:3000", 101), ("http://127.0.0.1:8080", 101), (nil, 101),
        ("https://api.example.com\r\nX-MockServer-Host: api.example.com", 101),  // a routed app's socket, which no page can send
    ])
    func upgradeFromAWebPage_isAnsweredOnlyForALoopbackOrigin(origin: String?, status: Int) async throws {
        try await Self.withServer { server, port in
            let raw = try RawHTTPClient(port: port)
            defer { raw.close() }
            let originLine = origin.map { "Origin: \($0)\r\n" } ?? ""
            try raw.send(
                "GET /stream?pair=BTC HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(originLine)Upgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            let response = try await raw.readResponse()
            #expect(response.status == status)
            // A refused page's upgrade is not journaled and moves no sequence.
            #expect(server.journal.entries.count == (status == 101 ? 1 : 0))
            if status == 403 { #expect(response.bodyText.contains("a WebSocket")) }
        }
    }
}

/// The player on its own, its session fed directly.
@Suite struct ConversationPlayerTests {
    @Test(.timeLimit(.minutes(1)))
    func clientThatLeavesDuringALongRecordedGap_endsThePlayAtOnce_notAfterTheGap() async throws {
        // Given a conversation whose first server message is due ten minutes after the upgrade
        let conversation = RecordedWebSocket(
            response: RecordedResponse(status: 101), messages: [.init(from: .server, offsetMs: 600_000, .text("late"))],
            ending: .closed(by: .server, code: 1000, reason: "", offsetMs: 600_000))
        let transcript = WebSocketTranscript()
        let player = ConversationPlayer(
            conversation: conversation,
            reference: InteractionReference(cassette: "t", cassetteIndex: 0, index: 0, method: "GET", target: "/late"),
            request: HTTPRequest(method: "GET", target: "/late"), rules: PreparedRules(MatchRules()), timing: .recorded, transcript: transcript)
        let session = WebSocketSession(response: HTTPResponse(status: 101))
        let play = Task { await player.play(on: session) { _ in } }
        // When the client closes while the player waits
        session.deliver(.closed(WebSocketClose(code: 1001, reason: "bye")))
        // Then the play ends (the time limit fails a player that sleeps out the gap), noting how the client left
        await play.value
        guard case .closed(.client, 1001, "bye", _)? = transcript.snapshot.ending else {
            Issue.record("expected the client's close in the transcript, found \(String(describing: transcript.snapshot.ending))")
            return
        }
        #expect(transcript.snapshot.messages.isEmpty)
    }
}
