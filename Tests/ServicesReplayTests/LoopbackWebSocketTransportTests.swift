import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import ServiceKit
import ServiceReplayTesting
import Testing

/// ``LoopbackWebSocketTransport`` against conversations of an in-code cassette, at the seam and through a client.
@Suite struct LoopbackWebSocketTransportTests {
    /// `/closed`: one message, then close 4001; `/dropped`: one message, then the socket ends without a close frame;
    /// `/open`: one message, then nothing, the socket left open.
    static let cassette = """
        {"format": "servicereplay-cassette", "version": 3, "name": "loopback", "interactions": [
          {"request": {"method": "GET", "target": "/closed"},
           "webSocket": {"response": {"status": 101, "headers": [["Upgrade", "websocket"], ["Connection", "Upgrade"]]},
             "messages": [{"from": "server", "text": "first"}], "close": {"by": "server", "code": 4001, "reason": "bye"}}},
          {"request": {"method": "GET", "target": "/dropped"},
           "webSocket": {"response": {"status": 101, "headers": [["Upgrade", "websocket"], ["Connection", "Upgrade"]]},
             "messages": [{"from": "server", "base64": "AAEC"}], "dropped": {"by": "server"}}},
          {"request": {"method": "GET", "target": "/open?x=1"},
           "webSocket": {"response": {"status": 101, "headers": [["Upgrade", "websocket"], ["Connection", "Upgrade"]]},
             "messages": [{"from": "server", "text": "hello"}]}}
        ]}
        """

    /// A service for the cassette's paths whose messages are read as text.
    struct Plain: WebSocketService {
        var endpoint: String
        var parameters: Parameters = [:]
        func incoming(from message: ServiceKit.WebSocketMessage) throws -> ServiceKit.WebSocketMessage? { message }
    }

    private func withServer<T>(_ body: (CassetteServer, URL) async throws -> T) async throws -> T {
        let cassettes = [try Cassette(jsonData: Data(Self.cassette.utf8), source: "loopback.json")]
        return try await withMockServer(cassettes: cassettes, configuration: .init(faults: .none)) { server in
            try await body(server, try #require(server.baseURL))
        }
    }

    /// The `ws://` URL of `path` on the server at `base`.
    private func socketURL(_ path: String, on base: URL) throws -> URL {
        var components = try #require(URLComponents(url: base, resolvingAgainstBaseURL: false))
        components.scheme = "ws"
        return try #require(URL(string: path, relativeTo: components.url)?.absoluteURL)
    }

    @Test(arguments: ["wss://127.0.0.1:9/socket", "ws://example.com/socket", "ws://10.0.0.1/socket", "http://127.0.0.1:9/socket"])
    func anythingButWSToLoopback_failsAtOpen_cannotConnect_withOneSentence(_ address: String) async throws {
        let error = await #expect(throws: URLError.self) {
            _ = try await LoopbackWebSocketTransport().open(URLRequest(url: URL(string: address)!), subprotocols: [])
        }
        #expect(error?.code == .cannotConnectToHost)
        #expect(
            error?.localizedDescription
                == "LoopbackWebSocketTransport connects only to a server on this machine (ws:// to 127.0.0.1, ::1 or localhost, no TLS), not to \(address).")
    }

    @Test func clientForARemoteAPI_reportsCannotConnect() async throws {
        let client = WebServiceClient(
            baseURL: URL(string: "https://api.example.com")!, configuration: .init(webSocketTransport: LoopbackWebSocketTransport()))
        let error = await #expect(throws: WebServiceError.self) { _ = try await client.connect(to: Plain(endpoint: "/socket")) }
        #expect(error?.reason == .network(.cannotConnect))
    }

    @Test func peersClose_isReceivedAfterTheMessages_andAgainOnEveryLaterCall() async throws {
        try await withServer { _, base in
            let connection = try await LoopbackWebSocketTransport().open(URLRequest(url: try socketURL("/closed", on: base)), subprotocols: [])
            #expect(try await connection.receive() == .message(.text("first")))
            #expect(try await connection.receive() == .close(WebSocketCloseFrame(code: 4001, reason: "bye")))
            #expect(try await connection.receive() == .close(WebSocketCloseFrame(code: 4001, reason: "bye")))
        }
    }

    @Test func drop_throwsAfterTheMessages_whichTheClientReportsAsConnectionLost() async throws {
        try await withServer { _, base in
            // At the seam: the binary message, then a throw, again on the next call
            let connection = try await LoopbackWebSocketTransport().open(URLRequest(url: try socketURL("/dropped", on: base)), subprotocols: [])
            #expect(try await connection.receive() == .message(.binary(Data([0, 1, 2]))))
            await #expect(throws: URLError.self) { _ = try await connection.receive() }
            await #expect(throws: URLError.self) { _ = try await connection.receive() }
            // Through a client: .network(.connectionLost)
            let client = WebServiceClient(baseURL: base, configuration: .init(webSocketTransport: LoopbackWebSocketTransport()))
            let socket = try await client.connect(to: Plain(endpoint: "/dropped"))
            var received: [ServiceKit.WebSocketMessage] = []
            let error = await #expect(throws: WebServiceError.self) {
                for try await message in socket.messages { received.append(message) }
            }
            #expect(received == [.binary(Data([0, 1, 2]))])
            #expect(error?.reason == .network(.connectionLost))
        }
    }

    @Test func close_returnsAtOnce_endsAWaitingReceive_andLaterSendsThrow() async throws {
        try await withServer { server, base in
            var request = URLRequest(url: try socketURL("/open?x=1", on: base))
            request.setValue("kept", forHTTPHeaderField: "X-Test")
            let connection = try await LoopbackWebSocketTransport().open(request, subprotocols: [])
            // The request's path, query and headers reached the server
            #expect(server.journal.entries.first?.request.target == "/open?x=1")
            #expect(server.journal.entries.first?.request.headers["X-Test"] == "kept")
            #expect(try await connection.receive() == .message(.text("hello")))
            // WHEN a receive waits on the open socket and the connection is closed
            let waiting = Task { try await connection.receive() }
            connection.close(WebSocketCloseFrame(code: .normalClosure))
            // THEN the receive ends by throwing, and so does a send
            await #expect(throws: URLError.self) { _ = try await waiting.value }
            await #expect(throws: URLError.self) { try await connection.send(.text("late")) }
            connection.close(WebSocketCloseFrame(code: .normalClosure))
        }
    }

    @Test func cancellingTheIteratingTask_isCancelled() async throws {
        try await withServer { _, base in
            let client = WebServiceClient(baseURL: base, configuration: .init(webSocketTransport: LoopbackWebSocketTransport()))
            let socket = try await client.connect(to: Plain(endpoint: "/open", parameters: ["x": 1]))
            let (firstArrived, arrived) = AsyncStream.makeStream(of: Void.self)
            let iterating = Task {
                for try await _ in socket.messages { arrived.yield() }
            }
            // WHEN the first message arrived and the iterating task is cancelled while it waits for the next
            for await _ in firstArrived { break }
            iterating.cancel()
            // THEN the iteration ends with .network(.cancelled)
            let outcome = await iterating.result
            guard case .failure(let error) = outcome else {
                Issue.record("expected a cancelled iteration, found \(outcome)")
                return
            }
            #expect((error as? WebServiceError)?.reason == .network(.cancelled))
        }
    }

    @Test func taskCancelledBeforeTheHandshake_throwsCancelled() async throws {
        try await withServer { _, base in
            let request = URLRequest(url: try socketURL("/open?x=1", on: base))
            let outcome = await withTaskGroup(of: (any Error)?.self) { group in
                group.cancelAll()
                group.addTask {
                    do {
                        _ = try await LoopbackWebSocketTransport().open(request, subprotocols: [])
                        return nil
                    } catch {
                        return error
                    }
                }
                return await group.next() ?? nil
            }
            #expect((outcome as? URLError)?.code == .cancelled)
        }
    }
}
