import Foundation
import MockServer
import ServiceKit
import ServiceReplayShared

/// One open connection of a ``LoopbackWebSocketTransport``: a ``MockServerWire/WebSocketClient`` read by a thread of
/// its own, which hands what it reads to the waiting ``receive()`` calls in order.
final class LoopbackWebSocketConnection: WebSocketTransportConnection {
    private let inbox: Inbox
    let subprotocol: String?

    /// How long the closing handshake may take before the socket is closed anyway, as the server waits.
    static let closingGrace = Duration.seconds(2)
    /// How often the reading thread looks up from a quiet socket to see whether a close is overdue.
    static let readSlice = Duration.milliseconds(200)

    /// Takes over `client` (its handshake done) and starts reading; sends wait at most `timeout`.
    init(client: WebSocketClient, timeout: Duration) {
        inbox = Inbox(client: client, timeout: timeout)
        subprotocol = client.subprotocol
        let inbox = inbox
        OwnThread.start("LoopbackWebSocket reader") { inbox.read() }
    }

    deinit {
        close(WebSocketCloseFrame(code: .goingAway))
    }

    func send(_ message: ServiceKit.WebSocketMessage) async throws {
        if let failure = inbox.sendingFailure() { throw failure }
        let wire: MockServerWire.WebSocketMessage =
            switch message {
            case .text(let text): .text(text)
            case .binary(let data): .binary(data)
            }
        let (client, timeout) = (inbox.client, inbox.timeout)
        try await OwnThread.run("LoopbackWebSocket send") {
            do throws(WebSocketClientError) {
                try client.send(wire, timeout: timeout)
            } catch .timedOut(let sentence) {
                throw URLError.described(.timedOut, sentence)
            } catch {
                throw URLError.described(.networkConnectionLost, error.description)
            }
        }
    }

    func receive() async throws -> ServiceKit.WebSocketEvent {
        try await withCheckedThrowingContinuation { continuation in
            inbox.take(continuation)
        }
    }

    func close(_ frame: WebSocketCloseFrame) {
        guard inbox.closeLocally() else { return }
        let client = inbox.client
        OwnThread.start("LoopbackWebSocket close") {
            // A code that may not travel (1005, 1006, one out of range) goes as a close frame without one.
            let code = UInt16(exactly: frame.code.rawValue).flatMap { WebSocketClose.isSendable($0) ? $0 : nil }
            try? client.close(code: code, reason: frame.reason, timeout: LoopbackWebSocketConnection.closingGrace)
        }
    }
}

/// What the reading thread read and the ``LoopbackWebSocketConnection/receive()`` calls wait for, under one lock.
private final class Inbox: Sendable {
    /// A call of ``LoopbackWebSocketConnection/receive()`` waiting for the next event.
    typealias Waiter = CheckedContinuation<ServiceKit.WebSocketEvent, any Error>

    private struct State {
        /// Messages read and not yet taken, in order.
        var messages: [ServiceKit.WebSocketEvent] = []
        /// Calls waiting for the next event, in the order they were made.
        var waiting: [Waiter] = []
        /// How the connection ended (the peer's close frame, or why it broke), told to every later call.
        var ending: Result<ServiceKit.WebSocketEvent, any Error>?
        /// When the app's close must have been answered, once it closed.
        var closingDeadline: ContinuousClock.Instant?
        /// Whether a close frame was sent (the app's, or the answer to the peer's).
        var sentClose = false
    }

    let client: WebSocketClient
    let timeout: Duration
    private let state = Lock(State())

    init(client: WebSocketClient, timeout: Duration) {
        self.client = client
        self.timeout = timeout
    }

    /// Hands the next event to `continuation`, now or once it is read.
    func take(_ continuation: Waiter) {
        let ready = state.withLock { state -> Result<ServiceKit.WebSocketEvent, any Error>? in
            if !state.messages.isEmpty { return .success(state.messages.removeFirst()) }
            if let ending = state.ending { return ending }
            state.waiting.append(continuation)
            return nil
        }
        if let ready { continuation.resume(with: ready) }
    }

    /// Why a send cannot go out, when the connection is closed or ended.
    func sendingFailure() -> (any Error)? {
        state.withLock { state in
            if state.closingDeadline != nil { return URLError.described(.cancelled, "The WebSocket connection was closed.") }
            if state.ending != nil { return URLError.described(.networkConnectionLost, "The WebSocket connection has ended.") }
            return nil
        }
    }

    /// Notes the app's close: waiting calls throw `URLError(.cancelled)` now; `false` when it was closed before.
    func closeLocally() -> Bool {
        let (first, waiting) = state.withLock { state -> (Bool, [Waiter]) in
            guard state.closingDeadline == nil else { return (false, []) }
            state.closingDeadline = .now + LoopbackWebSocketConnection.closingGrace
            let first = !state.sentClose
            state.sentClose = true
            if state.ending == nil { state.ending = .failure(URLError.described(.cancelled, "The WebSocket connection was closed.")) }
            defer { state.waiting = [] }
            return (first, state.waiting)
        }
        for continuation in waiting { continuation.resume(throwing: URLError.described(.cancelled, "The WebSocket connection was closed.")) }
        return first
    }

    /// Reads until the connection ends, then closes the socket. Runs on the reading thread.
    func read() {
        while true {
            let event: WebSocketClientEvent
            do {
                event = try client.receive(timeout: LoopbackWebSocketConnection.readSlice)
            } catch .timedOut {
                let overdue = state.withLock { state in state.closingDeadline.map { .now >= $0 } ?? false }
                guard overdue else { continue }
                return end(.failure(URLError.described(.networkConnectionLost, "The server did not answer the close frame.")))
            } catch {
                return end(.failure(URLError.described(.networkConnectionLost, error.description)))
            }
            switch event {
            case .message(.text(let text)):
                deliver(.message(.text(text)))
            case .message(.binary(let data)):
                deliver(.message(.binary(data)))
            case .ping, .pong:
                continue
            case .close(let close):
                let frame = WebSocketCloseFrame(code: WebSocketCloseCode(rawValue: close.code.map(Int.init) ?? 1005), reason: close.reason)
                let answer = state.withLock { state in
                    defer { state.sentClose = true }
                    return !state.sentClose
                }
                // The answer echoes the code, as RFC 6455 asks; a close without one is answered without one.
                if answer { try? client.close(code: close.code, timeout: LoopbackWebSocketConnection.closingGrace) }
                return end(.success(.close(frame)))
            case .ended:
                return end(.failure(URLError.described(.networkConnectionLost, "The server closed the connection without a close frame.")))
            }
        }
    }

    /// Hands `event` to the first waiting call, or keeps it.
    private func deliver(_ event: ServiceKit.WebSocketEvent) {
        let waiting = state.withLock { state -> Waiter? in
            guard state.waiting.isEmpty else { return state.waiting.removeFirst() }
            state.messages.append(event)
            return nil
        }
        waiting?.resume(returning: event)
    }

    /// Notes `ending` (unless the app's close came first), tells the waiting calls, and closes the socket.
    private func end(_ ending: Result<ServiceKit.WebSocketEvent, any Error>) {
        let (told, waiting) = state.withLock { state -> (Result<ServiceKit.WebSocketEvent, any Error>, [Waiter]) in
            if state.ending == nil { state.ending = ending }
            defer { state.waiting = [] }
            return (state.ending ?? ending, state.waiting)
        }
        for continuation in waiting { continuation.resume(with: told) }
        client.closeSocket()
    }
}
