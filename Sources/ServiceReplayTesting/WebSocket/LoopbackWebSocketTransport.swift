import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import ServiceKit
import ServiceReplayShared

/// A ``ServiceKit/WebSocketTransport`` for tests against a replay server on this machine: plain `ws://` to a
/// loopback address (`127.0.0.1` and the rest of `127.0.0.0/8`, `::1`, `localhost`), no TLS, over MockServer's own
/// WebSocket client instead of `URLSession`.
///
/// ``withReplay(_:in:upstream:configuration:client:now:filePath:function:fileID:line:column:_:)`` gives its client
/// one on Linux, where `URLSessionWebSocketTransport` cannot open WebSockets at all; elsewhere pass one yourself:
///
/// ```swift
/// let client = WebServiceClient(baseURL: server.baseURL!,
///                               configuration: .init(webSocketTransport: LoopbackWebSocketTransport()))
/// ```
///
/// What it does, as ``ServiceKit/WebSocketTransport`` asks:
/// - ``open(_:subprotocols:)`` sends the request's path, query and headers in the opening handshake and waits at
///   most the request's `timeoutInterval` (the client's timeout). A URL that is not `ws://` to a loopback address
///   fails at once with `URLError(.cannotConnectToHost)` whose description says so in one sentence (the client's
///   `.network(.cannotConnect)`); an answer other than 101 throws ``ServiceKit/WebSocketUpgradeRefused``; a
///   cancelled task stops waiting at once (the handshake under way is finished on its thread, then closed).
/// - The connection reads on a thread of its own: the server's messages in order, then its close frame, to every
///   later ``ServiceKit/WebSocketTransportConnection/receive()`` too (the close is answered, then the socket
///   closed). A connection that ends without a close frame throws `URLError(.networkConnectionLost)`, which the
///   client reports as `.network(.connectionLost)`. Pings are answered with pongs as they arrive.
/// - ``ServiceKit/WebSocketTransportConnection/close(_:)`` returns at once: the close frame is sent from a thread
///   of its own, a waiting `receive()` throws `URLError(.cancelled)` at once, and the socket is closed when the
///   server answers, or 2 seconds after.
///
/// Every blocking call runs on a thread of its own, never on Swift's cooperative pool.
public struct LoopbackWebSocketTransport: WebSocketTransport {
    /// A transport; it holds no state, connections are independent.
    public init() {}

    /// Opens a WebSocket connection to the replay server `request` names, offering `subprotocols`.
    ///
    /// - Throws: `URLError(.cannotConnectToHost)` with one sentence when the URL is not `ws://` to a loopback
    ///   address, or when nothing accepts connections there; ``ServiceKit/WebSocketUpgradeRefused`` when the
    ///   server answered with a status other than 101; `URLError(.timedOut)` when the handshake took longer than
    ///   the request's `timeoutInterval`; `URLError(.badServerResponse)` when the answer is no valid handshake;
    ///   `URLError(.cancelled)` when the calling task is cancelled.
    public func open(_ request: URLRequest, subprotocols: [String]) async throws -> any WebSocketTransportConnection {
        let target = try LoopbackTarget(request)
        let timeout = Duration.seconds(request.timeoutInterval > 0 ? request.timeoutInterval : 60)
        let handshake = PendingHandshake()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard handshake.begin(continuation) else { return }
                OwnThread.start("LoopbackWebSocket handshake") {
                    let outcome: Result<any WebSocketTransportConnection, any Error>
                    do throws(WebSocketClientError) {
                        let client = try WebSocketClient(
                            host: target.host, port: target.port, path: target.path, headers: target.headers, subprotocols: subprotocols,
                            timeout: timeout)
                        outcome = .success(LoopbackWebSocketConnection(client: client, timeout: timeout))
                    } catch {
                        outcome = .failure(Self.openingFailure(error, target: target))
                    }
                    handshake.finish(outcome)
                }
            }
        } onCancel: {
            handshake.cancel()
        }
    }

    /// What a failed handshake throws: a refusal for an answer other than 101, else a `URLError` with the client's
    /// sentence.
    static func openingFailure(_ error: WebSocketClientError, target: LoopbackTarget) -> any Error {
        switch error {
        case .rejected(let status, _, _):
            return WebSocketUpgradeRefused(statusCode: status)
        case .timedOut(let sentence):
            return URLError.described(.timedOut, sentence)
        case .failed(let sentence) where sentence.hasPrefix("Connecting to"):
            return URLError.described(.cannotConnectToHost, sentence)
        case .failed(let sentence):
            return URLError.described(.badServerResponse, sentence)
        case .protocolViolation:
            return URLError.described(.badServerResponse, error.description)
        }
    }
}

/// One handshake under way: the continuation its caller waits on, until the handshake's thread or a cancellation
/// settles it, whichever comes first.
private final class PendingHandshake: Sendable {
    private enum State {
        case starting
        case waiting(CheckedContinuation<any WebSocketTransportConnection, any Error>)
        case cancelled
        case settled
    }

    private let state = Lock(State.starting)

    /// Keeps `continuation`; `false` (having resumed it) when the task was already cancelled.
    func begin(_ continuation: CheckedContinuation<any WebSocketTransportConnection, any Error>) -> Bool {
        let cancelled = state.withLock { state in
            guard case .starting = state else { return true }
            state = .waiting(continuation)
            return false
        }
        if cancelled { continuation.resume(throwing: URLError.described(.cancelled, "The WebSocket handshake was cancelled.")) }
        return !cancelled
    }

    /// Hands `outcome` to the caller; a connection nobody waits for any more is closed.
    func finish(_ outcome: Result<any WebSocketTransportConnection, any Error>) {
        let waiting = state.withLock { state -> CheckedContinuation<any WebSocketTransportConnection, any Error>? in
            defer { state = .settled }
            guard case .waiting(let continuation) = state else { return nil }
            return continuation
        }
        if let waiting {
            waiting.resume(with: outcome)
        } else if case .success(let connection) = outcome {
            connection.close(WebSocketCloseFrame(code: .goingAway))
        }
    }

    /// Ends the caller's wait with `URLError(.cancelled)`; the handshake's thread finishes on its own.
    func cancel() {
        let waiting = state.withLock { state -> CheckedContinuation<any WebSocketTransportConnection, any Error>? in
            switch state {
            case .starting:
                state = .cancelled
                return nil
            case .waiting(let continuation):
                state = .settled
                return continuation
            case .cancelled, .settled:
                return nil
            }
        }
        waiting?.resume(throwing: URLError.described(.cancelled, "The WebSocket handshake was cancelled."))
    }
}

extension URLError {
    /// A `URLError` with `code` whose description is `sentence`.
    static func described(_ code: URLError.Code, _ sentence: String) -> URLError {
        URLError(code, userInfo: [NSLocalizedDescriptionKey: sentence])
    }
}
