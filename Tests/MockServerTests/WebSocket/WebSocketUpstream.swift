import Foundation
@testable import MockServer
import ServiceReplayShared

/// A WebSocket API on loopback, built from the wire itself, for capture tests. By path:
/// - `/echo`: sends every message back as it came; answers the text `bye` with close 4000 `see you`;
/// - `/drop`: sends the first message back, then ends the connection without a close frame;
/// - `/refuse`: answers 403 with a JSON body (no upgrade).
///
/// It chooses the subprotocol `chat` when the client offers it, adds `X-Upstream: 1` to its 101, logs every
/// request, and reports how each conversation ended for it (the session's last event) on ``endings``.
final class WebSocketUpstream: Sendable {
    static let refusal = Data(#"{"message":"no sockets for you"}"#.utf8)

    /// The requests it received, in order.
    let requests = Lock<[HTTPRequest]>([])
    /// The last event of each conversation, as the upstream saw it: `.closed`, `.ended` or `.refused`.
    let endings: AsyncStream<WebSocketEvent>
    private let endingsContinuation: AsyncStream<WebSocketEvent>.Continuation

    private init() {
        (endings, endingsContinuation) = AsyncStream.makeStream(of: WebSocketEvent.self)
    }

    /// Runs `body` with a started upstream and its base URL, then stops it.
    static func run<T>(_ body: (WebSocketUpstream, URL) async throws -> T) async throws -> T {
        let upstream = WebSocketUpstream()
        defer { upstream.endingsContinuation.finish() }
        return try await withServer(respond: { request in upstream.respond(request) }) { _, url in
            try await body(upstream, url)
        }
    }

    /// The next ending the upstream saw; `nil` when none came within `timeout`.
    func nextEnding(timeout: Duration = .seconds(30)) async -> WebSocketEvent? {
        await firstElement(of: endings, timeout: timeout)
    }

    private func respond(_ request: HTTPRequest) -> HTTPReply {
        requests.withLock { $0.append(request) }
        guard request.path != "/refuse" else {
            return .response(status: 403, headers: ["Content-Type": "application/json", "X-Reason": "closed"], body: Self.refusal)
        }
        let offered = request.headers.values(for: "Sec-WebSocket-Protocol").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let response: HTTPResponse
        do {
            response = try WebSocketHandshake.response(to: request, subprotocol: offered.contains("chat") ? "chat" : nil, headers: ["X-Upstream": "1"])
        } catch {
            return .response(error.response)
        }
        let session = WebSocketSession(response: response)
        let drops = request.path == "/drop"
        let endings = endingsContinuation
        Task {
            for await event in session.events {
                guard case .message(let message) = event else {
                    endings.yield(event)
                    return
                }
                if message == .text("bye") {
                    session.close(WebSocketClose(code: 4000, reason: "see you"))
                    continue
                }
                session.send(message)
                if drops { session.drop(reset: false) }
            }
        }
        return .webSocket(session)
    }
}

/// What a recording server reported through ``RecordingOptions/onExchange``, to be awaited.
final class AwaitedExchanges: Sendable {
    let stream: AsyncStream<ForwardedExchange>
    private let continuation: AsyncStream<ForwardedExchange>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: ForwardedExchange.self)
    }

    @Sendable func append(_ exchange: ForwardedExchange) {
        continuation.yield(exchange)
    }

    /// The next exchange reported; `nil` when none came within `timeout`.
    func next(timeout: Duration = .seconds(30)) async -> ForwardedExchange? {
        await firstElement(of: stream, timeout: timeout)
    }
}
