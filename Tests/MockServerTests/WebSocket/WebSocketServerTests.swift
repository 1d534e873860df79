import Foundation
@testable import MockServerWire
import Testing

/// A WebSocket through a real loopback socket: the server's ``WebSocketSession`` on one side, ``WebSocketClient`` (or
/// raw bytes) on the other.
@Suite struct WebSocketServerTests {
    // MARK: - Handshake

    @Test func handshake_answers101_withTheAcceptAndTheChosenSubprotocol() async throws {
        try await WebSocketTestServer.run(subprotocol: "superchat") { _, _, port in
            // When a client offers two subprotocols
            let client = try await WebSocketClient.connect(port: port, subprotocols: ["chat", "superchat"])
            defer { client.closeSocket() }
            // Then the server's 101 (whose accept value the client checked) chose one, with the extras after it
            #expect(client.response.status == 101)
            #expect(client.subprotocol == "superchat")
            #expect(client.response.headers["Connection"] == "Upgrade")
            #expect(client.response.headers["X-Test"] == "1")
            #expect(client.response.headers["Content-Length"] == nil)
        }
    }

    static func upgradeRequest(version: String = "13", key: String = "dGhlIHNhbXBsZSBub25jZQ==") -> String {
        "GET /socket HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: \(version)\r\n\r\n"
    }

    @Test(arguments: [(upgradeRequest(version: "8"), 426), (upgradeRequest(key: "short"), 400)])
    func badHandshake_isRefused_withItsStatus(_ request: String, _ status: Int) async throws {
        try await WebSocketTestServer.run { _, _, port in
            let raw = try RawHTTPClient(port: port)
            defer { raw.close() }
            try raw.send(request)
            let response = try await raw.readResponse()
            #expect(response.status == status)
            if status == 426 { #expect(response.headers["Sec-WebSocket-Version"] == "13") }
        }
    }

    @Test func non101_isAThrownError_withTheStatusHeadersAndBody() async throws {
        try await withServer(respond: { _ in .response(status: 403, headers: ["X-Why": "no"], body: Data("go away".utf8)) }) { _, url in
            do {
                _ = try await WebSocketClient.connect(port: url.port!)
                Issue.record("the handshake succeeded")
            } catch let error as WebSocketClientError {
                #expect(error == .rejected(status: 403, headers: error.rejectedHeaders, body: Data("go away".utf8)))
                #expect(error.rejectedHeaders["X-Why"] == "no")
            }
        }
    }

    @Test func non101WithAChunkedBody_isReadToItsEnd_decoded() async throws {
        // A body the handler already chunk-framed is sent as given (see HTTPReply.response), as an upstream would send it
        let framed = Data("4\r\ngo a\r\n3\r\nway\r\n0\r\n\r\n".utf8)
        try await withServer(respond: { _ in .response(status: 403, headers: ["Transfer-Encoding": "chunked"], body: framed) }) { _, url in
            do {
                _ = try await WebSocketClient.connect(port: url.port!)
                Issue.record("the handshake succeeded")
            } catch let error as WebSocketClientError {
                #expect(error == .rejected(status: 403, headers: error.rejectedHeaders, body: Data("go away".utf8)))
            }
        }
    }

    // MARK: - Messages

    @Test func textAndBinary_travelBothWays() async throws {
        try await WebSocketTestServer.run { server, _, port in
            let client = try await WebSocketClient.connect(port: port)
            defer { client.closeSocket() }
            let session = try #require(await server.nextSession())
            try client.send(.text("héllo"))
            try client.send(.binary(Data([0, 1, 2, 255])))
            #expect(await session.nextEvent() == .message(.text("héllo")))
            #expect(await session.nextEvent() == .message(.binary(Data([0, 1, 2, 255]))))
            session.send(.text("back"))
            session.send(.binary(Data(count: 70_000)))
            #expect(try await client.next() == .message(.text("back")))
            #expect(try await client.next() == .message(.binary(Data(count: 70_000))))
        }
    }

    @Test func clientFragments_withAnInterleavedPing_makeOneMessage_andThePingIsAnswered() async throws {
        try await WebSocketTestServer.run { server, _, port in
            let client = try await WebSocketClient.connect(port: port)
            defer { client.closeSocket() }
            let session = try #require(await server.nextSession())
            try client.send(frames: [
                WebSocketFrame(fin: false, opcode: .text, payload: Data("frag".utf8)),
                WebSocketFrame(opcode: .ping, payload: Data("are you there".utf8)),
                WebSocketFrame(fin: false, opcode: .continuation, payload: Data("men".utf8)),
                WebSocketFrame(opcode: .continuation, payload: Data("ted".utf8)),
            ])
            #expect(try await client.next() == .pong(Data("are you there".utf8)))
            #expect(await session.nextEvent() == .message(.text("fragmented")))
        }
    }

    @Test func serverFragments_reachTheClientAsOneMessage() async throws {
        try await WebSocketTestServer.run { server, _, port in
            let client = try await WebSocketClient.connect(port: port)
            defer { client.closeSocket() }
            let session = try #require(await server.nextSession())
            session.send(fragments: [Data([1]), Data(), Data([2, 3])], kind: .binary)
            #expect(try await client.next() == .message(.binary(Data([1, 2, 3]))))
        }
    }

    @Test func framesPipelinedAfterTheUpgradeRequest_areRead() async throws {
        try await WebSocketTestServer.run { server, _, port in
            let raw = try RawHTTPClient(port: port)
            defer { raw.close() }
            // Given the upgrade request and a frame in one write
            let frame = WebSocketFrameWriter.encode(WebSocketFrame(opcode: .text, payload: Data("early".utf8)), maskingKey: .random())
            try raw.send(Data(Self.upgradeRequest().utf8) + frame)
            let head = try await raw.read(through: "\r\n\r\n")
            #expect(String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
            let session = try #require(await server.nextSession())
            #expect(await session.nextEvent() == .message(.text("early")))
        }
    }

    // MARK: - Refusals

    static let refusals: [(name: String, bytes: Data, code: UInt16)] = [
        ("unmasked frame", WebSocketFrameWriter.encode(WebSocketFrame(opcode: .text, payload: Data("a".utf8))), 1002),
        ("RSV1 set", WebSocketFrameWriter.encode(fin: true, reservedBits: 4, opcode: 1, payload: Data("a".utf8), maskingKey: .random()), 1002),
        ("reserved opcode", WebSocketFrameWriter.encode(fin: true, reservedBits: 0, opcode: 5, payload: Data(), maskingKey: .random()), 1002),
        ("invalid UTF-8", WebSocketFrameWriter.encode(WebSocketFrame(opcode: .text, payload: Data([0xFF, 0xFE])), maskingKey: .random()), 1007),
        (
            "continuation without a start",
            WebSocketFrameWriter.encode(WebSocketFrame(opcode: .continuation, payload: Data("a".utf8)), maskingKey: .random()), 1002
        ),
        ("close code 1005", WebSocketFrameWriter.encode(WebSocketFrame(opcode: .close, payload: Data([0x03, 0xED])), maskingKey: .random()), 1002),
        ("frame over the limit", WebSocketFrameWriter.encode(WebSocketFrame(opcode: .binary, payload: Data(count: 200)), maskingKey: .random()), 1009),
        (
            "message over the limit",
            WebSocketFrameWriter.encode(WebSocketFrame(fin: false, opcode: .binary, payload: Data(count: 100)), maskingKey: .random())
                + WebSocketFrameWriter.encode(WebSocketFrame(opcode: .continuation, payload: Data(count: 100)), maskingKey: .random()), 1009
        ),
    ]

    @Test(arguments: refusals)
    func violation_isClosedWithItsCode_andReportedAsRefused(_ name: String, _ bytes: Data, _ code: UInt16) async throws {
        try await WebSocketTestServer.run(limits: WebSocketLimits(maxFrameSize: 150, maxMessageSize: 150)) { server, _, port in
            let client = try await WebSocketClient.connect(port: port)
            defer { client.closeSocket() }
            let session = try #require(await server.nextSession())
            try client.sendRaw(bytes)
            guard case .close(let close) = try await client.next() else {
                Issue.record("\(name): no close frame")
                return
            }
            #expect(close.code == code, "\(name)")
            #expect(try await client.next() == .ended, "\(name)")
            #expect(await session.nextEvent() == .refused(close), "\(name)")
        }
    }

    // MARK: - Closing

    @Test(arguments: [UInt16?.some(1000), 4000, nil])
    func clientClose_isEchoed_andEndsTheSession(_ code: UInt16?) async throws {
        try await WebSocketTestServer.run { server, _, port in
            let client = try await WebSocketClient.connect(port: port)
            defer { client.closeSocket() }
            let session = try #require(await server.nextSession())
            try client.close(code: code, reason: "bye")
            // The echo carries the code and no reason (nothing at all without a code)
            #expect(try await client.next() == .close(WebSocketClose(code: code)))
            #expect(try await client.next() == .ended)
            #expect(await session.nextEvent() == .closed(WebSocketClose(code: code, reason: code == nil ? "" : "bye")))
            #expect(await session.nextEvent() == nil)
        }
    }

    @Test func serverClose_thenTheClientsAnswer_endsAsClosed() async throws {
        try await WebSocketTestServer.run { server, _, port in
            let client = try await WebSocketClient.connect(port: port)
            defer { client.closeSocket() }
            let session = try #require(await server.nextSession())
            session.send(.text("last"))
            session.close(WebSocketClose(code: 4001, reason: "done"))
            session.send(.text("ignored"))
            #expect(try await client.next() == .message(.text("last")))
            #expect(try await client.next() == .close(WebSocketClose(code: 4001, reason: "done")))
            try client.close(code: 4001)
            #expect(await session.nextEvent() == .closed(WebSocketClose(code: 4001)))
            #expect(try await client.next() == .ended)
        }
    }

    @Test func serverClose_withoutAnAnswer_endsOnceItsCloseTimeHasPassed() async throws {
        try await WebSocketTestServer.run { server, _, port in
            let client = try await WebSocketClient.connect(port: port)
            defer { client.closeSocket() }
            let session = try #require(await server.nextSession())
            let started = ContinuousClock.now
            session.close(.normal)
            #expect(try await client.next() == .close(.normal))
            // The client never answers: the server gives up (the end is the event; the client's 30 s only bounds a
            // hang), and not before its 2 s close time, counted from when it sent its close
            #expect(try await client.next(timeout: .seconds(30)) == .ended)
            #expect(ContinuousClock.now - started >= .seconds(2))
            #expect(await session.nextEvent() == .ended)
        }
    }

    @Test(arguments: [true, false])
    func drop_endsTheConnection_withoutACloseFrame(_ reset: Bool) async throws {
        try await WebSocketTestServer.run { server, _, port in
            let client = try await WebSocketClient.connect(port: port)
            defer { client.closeSocket() }
            let session = try #require(await server.nextSession())
            session.send(.text("before"))
            session.drop(reset: reset)
            if !reset { #expect(try await client.next() == .message(.text("before"))) }
            #expect(try await client.next() == .ended)
            #expect(await session.nextEvent() == .ended)
        }
    }

    @Test func clientDroppingTCP_endsTheSession() async throws {
        try await WebSocketTestServer.run { server, _, port in
            let client = try await WebSocketClient.connect(port: port)
            let session = try #require(await server.nextSession())
            client.closeSocket()
            #expect(await session.nextEvent() == .ended)
        }
    }

    @Test func serverStop_endsAnOpenSocket() async throws {
        try await WebSocketTestServer.run { server, http, port in
            let client = try await WebSocketClient.connect(port: port)
            defer { client.closeSocket() }
            let session = try #require(await server.nextSession())
            await http.stop()
            #expect(await session.nextEvent() == .ended)
            #expect(try await client.next() == .ended)
        }
    }

    @Test func malformedServerFrame_isAProtocolViolationForTheClient() async throws {
        try await WebSocketTestServer.run { server, _, port in
            let client = try await WebSocketClient.connect(port: port)
            defer { client.closeSocket() }
            let session = try #require(await server.nextSession())
            session.sendRaw(Data([0x83, 0x00]))  // reserved opcode 3
            await #expect(throws: WebSocketClientError.protocolViolation(.protocolError("The opcode 3 is reserved."))) { try await client.next() }
        }
    }
}

extension WebSocketClientError {
    /// The headers of a ``rejected(status:headers:body:)``, empty for anything else.
    var rejectedHeaders: HTTPHeaders {
        if case .rejected(_, let headers, _) = self { return headers }
        return [:]
    }
}

extension WebSocketServerTests {
    @Test func oneSession_servesOneConnection_aSecondUpgradeCarryingItGets500() async throws {
        // Given a handler that (wrongly) answers every upgrade with the same session
        let response = try WebSocketHandshake.response(
            to: HTTPRequest(
                method: "GET", target: "/socket",
                headers: ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13"]),
            subprotocol: nil)
        let shared = WebSocketSession(response: response)
        try await withServer(respond: { _ in .webSocket(shared) }) { _, url in
            let port = url.port!
            // When two raw clients upgrade (the key above, so that the 101 is this session's)
            let first = try RawHTTPClient(port: port)
            defer { first.close() }
            try first.send(Self.upgradeRequest())
            #expect(try await first.readResponse().status == 101)
            let second = try RawHTTPClient(port: port)
            defer { second.close() }
            try second.send(Self.upgradeRequest())
            // Then the first keeps the session, and the second gets a 500
            #expect(try await second.readResponse().status == 500)
        }
    }
}

extension WebSocketServerTests {
    @Test func clientReleasedWithoutClosing_closesItsSocket_soTheServerSeesTheEnd() async throws {
        try await WebSocketTestServer.run { server, _, port in
            // When a client is released without close() or closeSocket()
            do { _ = try await WebSocketClient.connect(port: port) }
            // Then its socket was closed: the server's session ends
            let session = try #require(await server.nextSession())
            #expect(await session.nextEvent() == .ended)
        }
    }
}
