import Foundation
@testable import MockServer
@testable import MockServerWire
import Testing

/// Faults on the upgrade to a replayed conversation, each through a real loopback socket.
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
}
