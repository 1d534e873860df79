import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

/// The default ``WebSocketTransport``: `URLSessionWebSocketTask`s of one `URLSession` of its own.
///
/// The session is made when the first connection is opened, and invalidated (`finishTasksAndInvalidate()`) when
/// the transport goes away. ``open(_:subprotocols:)`` returns once the server accepted the upgrade; the request's
/// `timeoutInterval` (the client's timeout) is URLSession's to apply.
///
/// **Linux:** URLSession there is FoundationNetworking, which opens WebSockets through libcurl, and the libcurl
/// of common distributions (Debian's, Ubuntu's) is built without WebSocket support: every connection then fails
/// at once with `URLError(.unsupportedURL)`. This transport reports it as `URLError(.cannotConnectToHost)` whose
/// description is one sentence saying so, and the client as `.network(.cannotConnect)`; nothing crashes or
/// hangs. Use another ``WebSocketTransport`` there, or a test double (`ScriptedWebSocketTransport`).
///
/// No `URLProtocol` sees a WebSocket task, so in an app under UI test this transport sends its sockets to the
/// test's server itself (see ``open(_:subprotocols:)``). watchOS allows WebSockets only in the cases Apple's TN3135
/// lists (an app with an active audio session, say).
public final class URLSessionWebSocketTransport: WebSocketTransport {
    private let lazySession: LazySession
    private let router = WebSocketTaskRouter()

    /// The sentence of the error a connection fails with where URLSession's libcurl cannot open WebSockets.
    static let unsupportedOnLinux =
        "WebSockets are not available here: URLSession on Linux opens them through libcurl, which was built without WebSocket support; give the client another WebSocketTransport (Configuration.webSocketTransport)."

    /// A transport over a new session made from `configuration` (ephemeral by default: no cookies, cache or
    /// credentials persist between runs). The configuration is copied; changing it later has no effect.
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        lazySession = LazySession(configuration: configuration, delegate: router)
    }

    private var session: URLSession { lazySession.session }

    /// Opens a `URLSessionWebSocketTask` for `request`, `subprotocols` in its `Sec-WebSocket-Protocol` header, and
    /// returns once the server accepted it. Cancelling the calling task cancels the handshake.
    ///
    /// In an app under UI test whose requests `MockServerAppRouting` sends to the test's server, a socket for any
    /// host but loopback goes to that server instead (`ws://127.0.0.1:PORT`, same path and query, the host it
    /// meant in `X-MockServer-Host`): a `URLProtocol` cannot take a WebSocket task, so routing happens here.
    ///
    /// - Throws: ``WebSocketUpgradeRefused`` when the server answered with a status other than 101; the
    ///   session's `URLError` when no connection could be made (on Linux, the `URLError(.cannotConnectToHost)`
    ///   described above); `URLError(.cannotConnectToHost)` with routing's sentence when the app asked for
    ///   routing and it was refused, so the socket never reaches the real network.
    public func open(_ request: URLRequest, subprotocols: [String]) async throws -> any WebSocketTransportConnection {
        // An app under UI test whose requests are routed to the test's server: no URLProtocol can take a
        // WebSocket task, so the socket goes to that server here, or fails, never to the real network.
        var request = try ProcessRouting.routedWebSocketRequest(request)
        if !subprotocols.isEmpty {
            request.setValue(subprotocols.joined(separator: ", "), forHTTPHeaderField: "Sec-WebSocket-Protocol")
        }
        let task = session.webSocketTask(with: request)
        let connection = URLSessionWebSocketConnection(task: task)
        router.route(task, to: connection)
        do {
            connection.subprotocol = try await task.resumeAwaiting { continuation in
                connection.state.withLock { $0.opening.wait(with: continuation) }
            }
            return connection
        } catch {
            throw Self.openingFailure(error, of: task)
        }
    }

    /// What a failed handshake throws: a refusal when the server answered with another status than 101, the
    /// one clear sentence where libcurl has no WebSockets, the session's error otherwise.
    static func openingFailure(_ error: any Error, of task: URLSessionTask) -> any Error {
        if let response = task.response as? HTTPURLResponse, response.statusCode != 101 {
            return WebSocketUpgradeRefused(statusCode: response.statusCode)
        }
        #if canImport(FoundationNetworking)
        if let urlError = error as? URLError, urlError.code == .unsupportedURL {
            return URLError(
                .cannotConnectToHost,
                userInfo: [NSLocalizedDescriptionKey: unsupportedOnLinux, NSUnderlyingErrorKey: urlError as NSError])
        }
        #endif
        return error
    }
}

/// One `URLSessionWebSocketTask`, fed by the session's ``WebSocketTaskRouter``.
final class URLSessionWebSocketConnection: WebSocketTransportConnection {
    struct State {
        /// The handshake's outcome: the chosen subprotocol, or the failure.
        var opening = AwaitedOutcome<String?>()
        var subprotocol: String?
        /// The peer's close frame, once the session reported it.
        var peerClose: WebSocketCloseFrame?
    }

    let task: URLSessionWebSocketTask
    let state = Lock(State())

    init(task: URLSessionWebSocketTask) {
        self.task = task
    }

    deinit {
        task.cancel(with: .goingAway, reason: nil)
    }

    var subprotocol: String? {
        get { state.withLock { $0.subprotocol } }
        set { state.withLock { $0.subprotocol = newValue } }
    }

    func opened(subprotocol: String?) {
        let resumption = state.withLock { $0.opening.settle(.success(subprotocol)) }
        resumption?.resume()
    }

    func peerClosed(code: Int, reason: Data?) {
        let frame = WebSocketCloseFrame(code: WebSocketCloseCode(rawValue: code), reason: reason.map { String(decoding: $0, as: UTF8.self) } ?? "")
        state.withLock { $0.peerClose = frame }
    }

    func completed(error: (any Error)?) {
        let resumption = state.withLock { $0.opening.settle(.failure(error ?? URLError(.badServerResponse))) }
        resumption?.resume()
    }

    func send(_ message: WebSocketMessage) async throws {
        let outgoing: URLSessionWebSocketTask.Message =
            switch message {
            case .text(let text): .string(text)
            case .binary(let data): .data(data)
            }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            task.send(outgoing) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    func receive() async throws -> WebSocketEvent {
        if let frame = peerCloseFrame() { return .close(frame) }
        do {
            let message = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<WebSocketMessage, any Error>) in
                task.receive { result in
                    continuation.resume(with: result.flatMap(Self.message))
                }
            }
            return .message(message)
        } catch {
            if let frame = peerCloseFrame() { return .close(frame) }
            throw error
        }
    }

    func close(_ frame: WebSocketCloseFrame) {
        // Linux's CloseCode is a closed Swift enum without the 4000s; Apple's, imported from C, holds any code.
        let code = URLSessionWebSocketTask.CloseCode(rawValue: frame.code.rawValue) ?? .normalClosure
        task.cancel(with: code, reason: frame.reason.isEmpty ? nil : Data(frame.reason.utf8))
    }

    /// The peer's close frame: as the delegate reported it, or as the task holds it when the failed receive came
    /// first.
    private func peerCloseFrame() -> WebSocketCloseFrame? {
        if let frame = state.withLock({ $0.peerClose }) { return frame }
        guard task.closeCode != .invalid else { return nil }
        let reason = task.closeReason.map { String(decoding: $0, as: UTF8.self) } ?? ""
        return WebSocketCloseFrame(code: WebSocketCloseCode(rawValue: task.closeCode.rawValue), reason: reason)
    }

    /// The message as ServiceKit spells it.
    private static func message(_ received: URLSessionWebSocketTask.Message) -> Result<WebSocketMessage, any Error> {
        if case .string(let text) = received { return .success(.text(text)) }
        if case .data(let data) = received { return .success(.binary(data)) }
        return .failure(URLError(.cannotDecodeRawData))
    }
}
