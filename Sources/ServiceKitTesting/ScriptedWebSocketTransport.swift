import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ServiceReplayShared

/// A WebSocket transport double for testing a ``ServiceKit/WebSocketService`` without a network or a server:
/// each connection opened follows the next scripted opening (the last one repeats forever), and everything the
/// app sent and every close it made is recorded.
///
/// ```swift
/// let transport = ScriptedWebSocketTransport(.accept([.text(#"{"author":"ana","text":"hi"}"#), .close(4001, reason: "room is full")]))
/// let client = WebServiceClient(baseURL: URL(string: "https://chat.example.com")!,
///                               configuration: .init(webSocketTransport: transport))
/// ```
///
/// An accepted connection hands its scripted events to the app's receives in order. Once they are all taken
/// (and none of them ended the connection), the peer is silent until the app closes: a waiting receive then
/// gets the app's own close frame back, as a peer echoes it. After a close or a drop, sends throw
/// `URLError(.networkConnectionLost)`. Safe to use from several tasks at once.
public final class ScriptedWebSocketTransport: WebSocketTransport {
    /// How the server answers one opening handshake.
    public enum Opening: Sendable {
        /// Accepts the upgrade (choosing `subprotocol`), then does what `events` say, in order.
        case accept(_ events: [Event], subprotocol: String? = nil)
        /// Refuses the upgrade with `statusCode` (a `401`, say): ``ServiceKit/WebSocketUpgradeRefused``.
        case refuse(statusCode: Int)
        /// Fails the handshake with `error`, as when no connection could be made.
        case fail(any Error)
    }

    /// One step of the server on an accepted connection.
    public enum Event: Sendable {
        /// Sends a message.
        case message(WebSocketMessage)
        /// Closes with `code` and `reason`; nothing follows.
        case close(WebSocketCloseCode, reason: String = "")
        /// Drops the connection without a close frame (RFC 6455's 1006): the receive throws
        /// `URLError(.networkConnectionLost)`; nothing follows.
        case drop

        /// Sends `text` as a text message.
        public static func text(_ text: String) -> Event { .message(.text(text)) }
        /// Sends `data` as a binary message.
        public static func binary(_ data: Data) -> Event { .message(.binary(data)) }
    }

    private struct State {
        var openings: [Opening]
        var requests: [URLRequest] = []
        var offeredSubprotocols: [[String]] = []
        var sent: [WebSocketMessage] = []
        var closes: [WebSocketCloseFrame] = []
    }

    private let state: Lock<State>

    /// A transport whose connections follow `openings` in order, then repeat the last. Traps when `openings` is
    /// empty.
    public init(_ openings: [Opening]) {
        precondition(!openings.isEmpty, "script at least one opening")
        state = Lock(State(openings: openings))
    }

    /// A transport whose connections follow `openings` in order, then repeat the last. Traps when `openings` is
    /// empty.
    public convenience init(_ openings: Opening...) {
        self.init(openings)
    }

    /// Every opening request, in order.
    public var requests: [URLRequest] { state.withLock { $0.requests } }
    /// The subprotocols offered with each opening request, in order.
    public var offeredSubprotocols: [[String]] { state.withLock { $0.offeredSubprotocols } }
    /// Every message the app sent, on any connection, in order.
    public var sent: [WebSocketMessage] { state.withLock { $0.sent } }
    /// Every close frame the app sent while a connection was open, in order: its own closes, those of cancelled
    /// iterations, and the ``ServiceKit/WebSocketCloseCode/goingAway`` of a connection object that went away open.
    public var closes: [WebSocketCloseFrame] { state.withLock { $0.closes } }

    /// Records `request`, then follows the next opening: returns a connection playing its events, or throws.
    public func open(_ request: URLRequest, subprotocols: [String]) async throws -> any WebSocketTransportConnection {
        let opening = state.withLock { state in
            state.requests.append(request)
            state.offeredSubprotocols.append(subprotocols)
            return state.openings.count > 1 ? state.openings.removeFirst() : state.openings[0]
        }
        switch opening {
        case .accept(let events, let subprotocol):
            return Connection(events: events, subprotocol: subprotocol, transport: self)
        case .refuse(let statusCode):
            throw WebSocketUpgradeRefused(statusCode: statusCode)
        case .fail(let error):
            throw error
        }
    }

    fileprivate func record(sent message: WebSocketMessage) {
        state.withLock { $0.sent.append(message) }
    }

    fileprivate func record(close frame: WebSocketCloseFrame) {
        state.withLock { $0.closes.append(frame) }
    }

    /// One scripted connection.
    private final class Connection: WebSocketTransportConnection {
        private struct State {
            var events: [Event]
            /// How the connection ended: the close event every later receive returns, or a drop.
            var ending: Result<WebSocketEvent, URLError>?
            /// Receives waiting for the app's close, in order.
            var waiting: [CheckedContinuation<WebSocketEvent, any Error>] = []
        }

        let subprotocol: String?
        private let transport: ScriptedWebSocketTransport
        private let state: Lock<State>

        init(events: [Event], subprotocol: String?, transport: ScriptedWebSocketTransport) {
            self.subprotocol = subprotocol
            self.transport = transport
            state = Lock(State(events: events))
        }

        func send(_ message: WebSocketMessage) async throws {
            guard state.withLock({ $0.ending == nil }) else { throw URLError(.networkConnectionLost) }
            transport.record(sent: message)
        }

        func receive() async throws -> WebSocketEvent {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<WebSocketEvent, URLError>? in
                    if let ending = state.ending { return ending }
                    guard !state.events.isEmpty else {
                        state.waiting.append(continuation)
                        return nil
                    }
                    switch state.events.removeFirst() {
                    case .message(let message):
                        return .success(.message(message))
                    case .close(let code, let reason):
                        state.ending = .success(.close(WebSocketCloseFrame(code: code, reason: reason)))
                        return state.ending
                    case .drop:
                        state.ending = .failure(URLError(.networkConnectionLost))
                        return state.ending
                    }
                }
                if let ready {
                    continuation.resume(with: ready)
                }
            }
        }

        func close(_ frame: WebSocketCloseFrame) {
            let waiting = state.withLock { state -> [CheckedContinuation<WebSocketEvent, any Error>]? in
                guard state.ending == nil else { return nil }
                state.ending = .success(.close(frame))
                defer { state.waiting = [] }
                return state.waiting
            }
            guard let waiting else { return }
            transport.record(close: frame)
            for continuation in waiting {
                continuation.resume(returning: .close(frame))
            }
        }
    }
}
