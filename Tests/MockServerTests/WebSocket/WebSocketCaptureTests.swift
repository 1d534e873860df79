import Foundation
@testable import MockServer
import ServiceReplayShared
import Testing

/// A recording server in front of a WebSocket upstream: the conversation relayed both ways, recorded with its
/// sides, timing and ending, and replayed offline.
@Suite struct WebSocketCaptureTests {
    /// Connects through the server on `port` off the cooperative pool (the handshake blocks).
    static func connect(
        _ port: Int, path: String = "/echo", headers: HTTPHeaders = [:], subprotocols: [String] = []
    ) async throws -> WebSocketClient {
        try await onThread { try WebSocketClient(host: "127.0.0.1", port: port, path: path, headers: headers, subprotocols: subprotocols) }
    }

    /// The conversation of `exchange`, failing the test when it holds none.
    static func conversation(_ exchange: ForwardedExchange?) throws -> RecordedWebSocket {
        let exchange = try #require(exchange, "no exchange was reported")
        return try #require(exchange.interaction.webSocket)
    }

    static let binary = Data([0, 1, 2, 0xFF, 0xFE, 0x80])

    @Test func record_relaysMessagesBothWaysByteForByte_andRecordsSidesKindsOffsetsAndTheClose() async throws {
        try await WebSocketUpstream.run { upstream, upstreamURL in
            let exchanges = AwaitedExchanges()
            try await withRecordingServer(upstream: upstreamURL, onExchange: exchanges.append) { server, base in
                // Given a client that upgrades through the recorder with credentials, an origin and a subprotocol offer
                let client = try await Self.connect(
                    base.port!, headers: ["Authorization": "Bearer s3cr3t-token-value", "Origin": "http://localhost:5173", "Cookie": "id=42"],
                    subprotocols: ["chat"])
                defer { client.closeSocket() }
                // Then the upstream's 101 reached it (its chosen subprotocol and extra header; the accept was checked for its key)
                #expect(client.subprotocol == "chat")
                #expect(client.response.headers["X-Upstream"] == "1")
                // When it sends text and binary, then asks the upstream to close
                try client.send(.text("hello ☃"))
                #expect(try await client.next() == .message(.text("hello ☃")))
                try client.send(.binary(Self.binary))
                #expect(try await client.next() == .message(.binary(Self.binary)))
                try client.send(.text("bye"))
                // Then the upstream's close reaches it with its code and reason
                #expect(try await client.next() == .close(WebSocketClose(code: 4000, reason: "see you")))
                try client.close(code: 4000, reason: "see you")

                // And the upstream got the client's headers, but a handshake of its own
                let request = try #require(upstream.requests.withLock { $0.first })
                #expect(request.headers["Authorization"] == "Bearer s3cr3t-token-value")
                #expect(request.headers["Origin"] == "http://localhost:5173")
                #expect(request.headers["Cookie"] == "id=42")
                #expect(request.headers.values(for: "Sec-WebSocket-Protocol") == ["chat"])
                #expect(request.headers.values(for: "Sec-WebSocket-Key").count == 1)

                // And the cassette holds the conversation in order, text as text and binary as bytes
                let conversation = try Self.conversation(await exchanges.next())
                #expect(conversation.messages.map(\.from) == [.client, .server, .client, .server, .client])
                #expect(
                    conversation.messages.map(\.content) == [
                        .text("hello ☃"), .text("hello ☃"), .binary(Self.binary), .binary(Self.binary), .text("bye"),
                    ])
                let offsets = conversation.messages.map(\.offsetMs)
                #expect(offsets == offsets.sorted())
                guard case .closed(.server, 4000, "see you", let closedAt) = conversation.ending else {
                    Issue.record("expected the upstream's close, found \(conversation.ending)")
                    return
                }
                #expect(closedAt >= offsets.last ?? 0)
                #expect(conversation.response.status == 101)
                #expect(conversation.response.headers["X-Upstream"] == "1")
                #expect(conversation.response.headers["Sec-WebSocket-Protocol"] == "chat")

                // And the recorded request is redacted and without the client's one-time key
                let interaction = try #require(server.recordedCassette?.interactions.first)
                #expect(interaction.request.headers["Authorization"] == RedactionRules.placeholder)
                #expect(interaction.request.headers["Sec-WebSocket-Key"] == nil)
                #expect(interaction.request.headers["Sec-WebSocket-Protocol"] == "chat")
                // And the file form shows text as text and binary as base64
                let file = String(decoding: try #require(server.recordedCassette).encoded(), as: UTF8.self)
                #expect(file.contains(#""text" : "hello ☃""#))
                #expect(file.contains(#""base64" : "\#(Self.binary.base64EncodedString())""#))

                // And the journal showed the conversation, live, on the upgrade's entry
                let entry = try #require(server.journal.entries.first)
                #expect(entry.outcome.kind == .recorded)
                #expect(entry.outcome.status == 101)
                let snapshot = try #require(entry.outcome.webSocket).snapshot
                #expect(snapshot.messageCount == 5)
                #expect(snapshot.ending == conversation.ending)
            }
        }
    }

    @Test func upstreamDrop_dropsTheClient_andIsRecordedAsDroppedByTheServer() async throws {
        try await WebSocketUpstream.run { _, upstreamURL in
            let exchanges = AwaitedExchanges()
            try await withRecordingServer(upstream: upstreamURL, onExchange: exchanges.append) { _, base in
                let client = try await Self.connect(base.port!, path: "/drop")
                defer { client.closeSocket() }
                try client.send(.text("one"))
                #expect(try await client.next() == .message(.text("one")))
                #expect(try await client.next() == .ended)
                let conversation = try Self.conversation(await exchanges.next())
                #expect(conversation.messages.map(\.from) == [.client, .server])
                guard case .dropped(.server, _) = conversation.ending else {
                    Issue.record("expected dropped by the server, found \(conversation.ending)")
                    return
                }
            }
        }
    }

    @Test func clientDrop_dropsTheUpstream_andIsRecordedAsDroppedByTheClient() async throws {
        try await WebSocketUpstream.run { upstream, upstreamURL in
            let exchanges = AwaitedExchanges()
            try await withRecordingServer(upstream: upstreamURL, onExchange: exchanges.append) { _, base in
                let client = try await Self.connect(base.port!)
                try client.send(.text("one"))
                #expect(try await client.next() == .message(.text("one")))
                client.closeSocket()
                #expect(await upstream.nextEnding() == .ended)
                let conversation = try Self.conversation(await exchanges.next())
                guard case .dropped(.client, _) = conversation.ending else {
                    Issue.record("expected dropped by the client, found \(conversation.ending)")
                    return
                }
            }
        }
    }

    @Test func clientClose_isForwardedWithItsCodeAndReason_andRecordedAsClosedByTheClient() async throws {
        try await WebSocketUpstream.run { upstream, upstreamURL in
            let exchanges = AwaitedExchanges()
            try await withRecordingServer(upstream: upstreamURL, onExchange: exchanges.append) { _, base in
                let client = try await Self.connect(base.port!)
                defer { client.closeSocket() }
                try client.close(code: 1000, reason: "done here")
                // (the recorder's wire answers it at once, with the code and no reason)
                #expect(try await client.next() == .close(WebSocketClose(code: 1000)))
                #expect(await upstream.nextEnding() == .closed(WebSocketClose(code: 1000, reason: "done here")))
                let conversation = try Self.conversation(await exchanges.next())
                #expect(conversation.messages.isEmpty)
                guard case .closed(.client, 1000, "done here", _) = conversation.ending else {
                    Issue.record("expected closed by the client, found \(conversation.ending)")
                    return
                }
            }
        }
    }

    @Test func upstreamRefusal_reachesTheClient_andIsRecordedAsAPlainExchange() async throws {
        try await WebSocketUpstream.run { _, upstreamURL in
            let exchanges = AwaitedExchanges()
            try await withRecordingServer(upstream: upstreamURL, onExchange: exchanges.append) { server, base in
                do {
                    _ = try await Self.connect(base.port!, path: "/refuse")
                    Issue.record("the upgrade was accepted")
                } catch let WebSocketClientError.rejected(status, headers, body) {
                    #expect(status == 403)
                    #expect(headers["X-Reason"] == "closed")
                    #expect(body == WebSocketUpstream.refusal)
                }
                let exchange = try #require(await exchanges.next())
                #expect(exchange.status == 403)
                #expect(exchange.interaction.webSocket == nil)
                #expect(exchange.interaction.response?.status == 403)
                #expect(exchange.interaction.response?.body.data == WebSocketUpstream.refusal)
                #expect(server.recordedCassette?.interactions.count == 1)
            }
        }
    }

    @Test func stoppingTheServer_endsTheRelay_andRecordsTheConversationAsUnfinished() async throws {
        try await WebSocketUpstream.run { upstream, upstreamURL in
            try await withRecordingServer(upstream: upstreamURL) { server, base in
                let client = try await Self.connect(base.port!)
                defer { client.closeSocket() }
                try client.send(.text("one"))
                #expect(try await client.next() == .message(.text("one")))
                await server.stop()
                // The relay sends close 1001 as it ends; the stopping server may end the connection before it is written.
                let last = try await client.next()
                #expect(last == .close(WebSocketClose(code: 1001, reason: "The recording server stopped.")) || last == .ended)
                // The upstream, whose socket the relay owns, always gets the going-away close before its socket ends.
                #expect(await upstream.nextEnding() == .closed(WebSocketClose(code: 1001, reason: "The recording server stopped.")))
                let conversation = try #require(server.recordedCassette?.interactions.first?.webSocket)
                #expect(conversation.messages.count == 2)
                #expect(conversation.ending == .unfinished)
            }
        }
    }

    @Test func passThrough_relaysWithoutRecording() async throws {
        try await WebSocketUpstream.run { _, upstreamURL in
            let exchanges = AwaitedExchanges()
            try await withRecordingServer(upstream: upstreamURL, mode: .passThrough, onExchange: exchanges.append) { server, base in
                let client = try await Self.connect(base.port!)
                defer { client.closeSocket() }
                try client.send(.text("one"))
                #expect(try await client.next() == .message(.text("one")))
                try client.close(code: 1000)
                let exchange = try #require(await exchanges.next())
                #expect(exchange.index == nil)
                #expect(exchange.interaction.webSocket?.messages.count == 2)
                #expect(server.journal.entries.map(\.outcome.kind) == [.passedThrough])
                #expect(server.recordedCassette == nil)
            }
        }
    }

    @Test func wssUpstream_isAnswered502_sayingItCannotBeCapturedYet_andNotRecorded() async throws {
        let exchanges = AwaitedExchanges()
        try await withRecordingServer(upstream: URL(string: "https://127.0.0.1:9")!, onExchange: exchanges.append) { server, base in
            do {
                _ = try await Self.connect(base.port!)
                Issue.record("the upgrade was accepted")
            } catch let WebSocketClientError.rejected(status, _, body) {
                #expect(status == 502)
                let message = try CassetteJSON(parsing: body)["message"]?.stringValue
                #expect(
                    message
                        == "The upstream https://127.0.0.1:9 is https, and a WebSocket cannot be captured from a wss:// upstream yet (no TLS); nothing was recorded for this request."
                )
            }
            #expect(await exchanges.next()?.notRecorded == true)
            #expect(server.journal.entries.map(\.outcome.kind) == [.upstreamUnreachable])
            #expect(server.recordedCassette?.interactions.isEmpty == true)
        }
    }

    @Test func newEpisodes_replaysARecordedConversation_andRelaysAndAppendsAnUnmatchedOne() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("socket.json")
        try await WebSocketUpstream.run { upstream, upstreamURL in
            // Given a cassette holding a conversation on /echo?old whose server message the upstream would never send
            let recorded = RecordedWebSocket(
                response: RecordedResponse(status: 101, headers: ["Upgrade": "websocket", "Connection": "Upgrade"]),
                messages: [.init(from: .client, offsetMs: 0, .text("hi")), .init(from: .server, offsetMs: 1, .text("recorded reply"))],
                ending: .closed(by: .server, code: 4001, reason: "recorded", offsetMs: 2))
            try Cassette(
                name: "socket", upstream: upstreamURL.absoluteString,
                interactions: [Interaction(request: RecordedRequest(method: "GET", target: "/echo?old"), outcome: .webSocket(recorded))]
            ).save(to: file)
            let exchanges = AwaitedExchanges()
            try await withRecordingServer(upstream: upstreamURL, mode: .replayOrRecord, file: file, onExchange: exchanges.append) { server, base in
                // When the recorded upgrade comes, it replays without reaching the upstream
                let old = try await Self.connect(base.port!, path: "/echo?old")
                defer { old.closeSocket() }
                try old.send(.text("hi"))
                #expect(try await old.next() == .message(.text("recorded reply")))
                #expect(try await old.next() == .close(WebSocketClose(code: 4001, reason: "recorded")))
                #expect(upstream.requests.withLock { $0.isEmpty })
                // And a new one is relayed and recorded
                let new = try await Self.connect(base.port!, path: "/echo?new")
                defer { new.closeSocket() }
                try new.send(.text("hi"))
                #expect(try await new.next() == .message(.text("hi")))
                try new.close(code: 1000)
                _ = try Self.conversation(await exchanges.next())
                #expect(server.journal.entries.map(\.outcome.kind) == [.matched, .recorded])
            }
            // Then the file holds the old conversation followed by the new one
            let saved = try Cassette.load(from: file)
            #expect(saved.interactions.map(\.request.target) == ["/echo?old", "/echo?new"])
            #expect(saved.interactions[1].webSocket?.messages.map(\.content) == [.text("hi"), .text("hi")])
        }
    }

    @Test func onceMode_recordsFromAnEmptyFolder_thenReplaysOfflineByteForByte() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Given MOCKSERVER_RECORD=once, an empty folder and the upstream running
        let live: [WebSocketClientEvent] = try await WebSocketUpstream.run { _, upstreamURL in
            try await TestEnvironment.$override.withValue(["MOCKSERVER_RECORD": "once"]) {
                try await withMockServer(
                    replaying: "sockets/echo", in: folder, upstream: upstreamURL.absoluteString, configuration: .init(faults: .none)
                ) { server in
                    try await Self.exchangeMessages(port: server.baseURL!.port!)
                }
            }
        }
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("sockets/echo.json").path))
        // When the same test runs offline (the upstream stopped), in replay mode
        let replayed: [WebSocketClientEvent] = try await TestEnvironment.$override.withValue([:]) {
            try await withMockServer(replaying: "sockets/echo", in: folder, configuration: .init(faults: .none)) { server in
                try await Self.exchangeMessages(port: server.baseURL!.port!)
            }
        }
        // Then the client reads the same server messages and close, byte for byte
        #expect(replayed == live)
        #expect(live.count == 3)
    }

    /// Sends text, binary and `bye` on `/echo`, answering each echo; returns what the client read, the close last.
    static func exchangeMessages(port: Int) async throws -> [WebSocketClientEvent] {
        let client = try await connect(port)
        defer { client.closeSocket() }
        var events: [WebSocketClientEvent] = []
        try client.send(.text(#"{"subscribe":"BTC"}"#))
        events.append(try await client.next())
        try client.send(.binary(binary))
        events.append(try await client.next())
        try client.send(.text("bye"))
        events.append(try await client.next())
        if case .close(let close) = events.last { try client.close(code: close.code, reason: close.reason) }
        // Waits for the server to end the connection, so the conversation is complete when the test leaves.
        for _ in 0..<10 where try await client.next() != .ended {}
        return events
    }
}
