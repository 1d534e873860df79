import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

/// The session delegate of ``URLSessionWebSocketTransport``: it hands each WebSocket task's callbacks to that
/// task's connection. By the session, not the task, because per-task delegates are never called on Linux. Each
/// task is held until it completes; handlers are called outside the lock.
final class WebSocketTaskRouter: NSObject, URLSessionWebSocketDelegate, Sendable {
    private let connections = Lock<[ObjectIdentifier: URLSessionWebSocketConnection]>([:])

    /// Sends `task`'s callbacks to `connection` until it completes. Call it before resuming the task.
    func route(_ task: URLSessionWebSocketTask, to connection: URLSessionWebSocketConnection) {
        connections.withLock { $0[ObjectIdentifier(task)] = connection }
    }

    private func connection(of task: URLSessionTask) -> URLSessionWebSocketConnection? {
        connections.withLock { $0[ObjectIdentifier(task)] }
    }

    func urlSession(_ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol protocol: String?) {
        connection(of: webSocketTask)?.opened(subprotocol: `protocol`)
    }

    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask,
        didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?
    ) {
        connection(of: webSocketTask)?.peerClosed(code: closeCode.rawValue, reason: reason)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let connection = connections.withLock { $0.removeValue(forKey: ObjectIdentifier(task)) }
        connection?.completed(error: error)
    }
}
