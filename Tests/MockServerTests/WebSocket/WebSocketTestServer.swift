import Foundation
@testable import MockServerWire

/// A server that upgrades every WebSocket request (choosing `subprotocol` when the client offers it) and hands each
/// session to the test, which then plays the server's side itself; other requests get 404.
struct WebSocketTestServer: Sendable {
    /// The sessions in the order their upgrades arrived.
    let sessions: AsyncStream<WebSocketSession>

    /// Runs `body` with a started server and the test's view of it, then stops the server.
    static func run(
        limits: WebSocketLimits = WebSocketLimits(), subprotocol: String? = nil, _ body: (WebSocketTestServer, HTTPServer, Int) async throws -> Void
    ) async throws {
        let (sessions, continuation) = AsyncStream.makeStream(of: WebSocketSession.self)
        defer { continuation.finish() }
        try await withServer(respond: { request in
            guard WebSocketHandshake.isUpgrade(request) else { return .response(status: 404) }
            let offered = WebSocketHandshake.tokens(of: "Sec-WebSocket-Protocol", in: request.headers)
            do throws(RequestRejection) {
                let response = try WebSocketHandshake.response(
                    to: request, subprotocol: offered.contains(subprotocol ?? "") ? subprotocol : nil, headers: ["X-Test": "1"])
                let session = WebSocketSession(response: response, limits: limits)
                continuation.yield(session)
                return .webSocket(session)
            } catch {
                return .response(error.response)
            }
        }) { server, url in
            try await body(WebSocketTestServer(sessions: sessions), server, url.port!)
        }
    }

    /// The next session; `nil` when none came within `timeout`.
    func nextSession(timeout: Duration = .seconds(30)) async -> WebSocketSession? {
        await firstElement(of: sessions, timeout: timeout)
    }
}

/// The first element `stream` yields within `timeout`, or `nil` when it finished or the time passed first (the sleep
/// only bounds the wait: the element ends it as soon as it comes). A timed-out wait ends the stream, as cancelling
/// its consumer does.
func firstElement<Element: Sendable>(of stream: AsyncStream<Element>, timeout: Duration) async -> Element? {
    await withTaskGroup(of: Element?.self) { group in
        group.addTask {
            for await element in stream { return element }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

extension WebSocketSession {
    /// The next event the session reports; `nil` when none came within `timeout` or the events have ended.
    func nextEvent(timeout: Duration = .seconds(30)) async -> WebSocketEvent? {
        await firstElement(of: events, timeout: timeout)
    }
}

extension WebSocketClient {
    /// Connects to the test server on `port` off the cooperative pool (the handshake blocks).
    static func connect(port: Int, subprotocols: [String] = []) async throws -> WebSocketClient {
        try await onThread { try WebSocketClient(host: "127.0.0.1", port: port, path: "/socket", subprotocols: subprotocols) }
    }

    /// ``receive(timeout:)`` off the cooperative pool.
    func next(timeout: Duration = .seconds(10)) async throws -> WebSocketClientEvent {
        try await onThread { try self.receive(timeout: timeout) }
    }

    /// ``sendFrame(_:masked:maskingKey:timeout:)`` for each of `frames`, in order.
    func send(frames: [WebSocketFrame], masked: Bool = true) throws {
        for frame in frames { try sendFrame(frame, masked: masked) }
    }
}
