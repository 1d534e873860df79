import Foundation
import ServiceReplayShared
@testable import MockServer
import Testing

/// `recorder capture` in front of a WebSocket upstream: relayed, printed, recorded, saved.
@Suite struct WebSocketCaptureCommandTests {
    /// An upstream that upgrades every request, sends each message back, and answers `bye` with close 4000.
    struct EchoUpstream: HTTPHandler {
        func reply(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPReply {
            do {
                let session = WebSocketSession(response: try WebSocketHandshake.response(to: request, subprotocol: nil))
                Task {
                    for await event in session.events {
                        guard case .message(let message) = event else { return }
                        if message == .text("bye") {
                            session.close(WebSocketClose(code: 4000, reason: "see you"))
                        } else {
                            session.send(message)
                        }
                    }
                }
                return .webSocket(session)
            } catch {
                return .response(error.response)
            }
        }
    }

    @Test func capture_relaysAConversation_printsItsLine_andSavesItInTheCassette() async throws {
        // GIVEN a WebSocket upstream on loopback and recorder capture in front of it
        let workspace = try Workspace()
        defer { workspace.remove() }
        let upstream = HTTPServer(configuration: .init(), handler: EchoUpstream())
        let upstreamURL = try await upstream.start()
        let capture = try RunningRecorder(
            ["capture", "--upstream", upstreamURL.absoluteString, "--out", "Recordings/socket.json"], in: workspace.folder)
        let proxy = try await capture.address(after: "Listening on")
        // WHEN a client says hello in text and binary, then bye
        let port = try #require(proxy.port)
        let client = try await offThePool { try WebSocketClient(host: "127.0.0.1", port: port, path: "/socket?room=1") }
        defer { client.closeSocket() }
        try client.send(.text("hello"))
        #expect(try await offThePool { try client.receive() } == .message(.text("hello")))
        try client.send(.binary(Data([0, 0xFF])))
        #expect(try await offThePool { try client.receive() } == .message(.binary(Data([0, 0xFF]))))
        try client.send(.text("bye"))
        #expect(try await offThePool { try client.receive() } == .close(WebSocketClose(code: 4000, reason: "see you")))
        try client.close(code: 4000)
        // THEN the capture prints the conversation's line once it ended
        let line = try await capture.line(containing: "GET /socket?room=1")
        #expect(line.contains("→ 101"))
        #expect(line.hasSuffix(", WebSocket of 5 messages (3 from the client, 2 from the server), closed by the server (4000 see you), interaction 0"))
        let run = try await capture.stop(with: SIGTERM)
        await upstream.stop()
        #expect(run.status == 0, "\(run.stderr)")
        // AND the cassette holds it, text as text and binary as bytes
        let saved = try Cassette.load(from: workspace.url("Recordings/socket.json"))
        let conversation = try #require(saved.interactions.first?.webSocket)
        #expect(
            conversation.messages.map(\.content) == [.text("hello"), .text("hello"), .binary(Data([0, 0xFF])), .binary(Data([0, 0xFF])), .text("bye")])
        #expect(conversation.messages.map(\.from) == [.client, .server, .client, .server, .client])
    }
}
