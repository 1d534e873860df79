import Foundation

/// What one prepared interaction replays, built once when its cassette is prepared.
enum PreparedReply: Sendable {
    /// Send this response. JSON bodies were serialized once when the engine was built; `Content-Length`
    /// is set and a recorded `Transfer-Encoding` removed (see ``RecordedResponse/replayResponse``).
    case response(HTTPResponse)
    /// Reproduce this recorded transport failure (refused, reset, timeout).
    case failure(TransportFailure)
    /// Send this stream, each part at its recorded offset.
    case stream(HTTPStream)
    /// Accept the upgrade and play this conversation.
    case webSocket(RecordedWebSocket)

    /// The response's status, or `nil` for a transport failure.
    var status: Int? {
        switch self {
        case .response(let response): response.status
        case .stream(let stream): stream.head.status
        case .webSocket(let conversation): conversation.response.status
        case .failure: nil
        }
    }

    /// The kind of the transport failure it reproduces, `nil` for an answer.
    var failureKind: TransportFailure.Kind? {
        guard case .failure(let failure) = self else { return nil }
        return failure.kind
    }

    /// The reply the server carries out, a stream timed as `timing` says.
    func reply(timing: StreamTiming) -> HTTPReply {
        switch self {
        case .response(let response): return .response(response)
        case .failure(let failure): return failure.reply
        case .stream(let recorded):
            var stream = recorded
            stream.timeScale = timing.scale
            return .stream(stream)
        case .webSocket:
            // The engine plays a conversation (see `ReplayEngine.conversationAnswer`); it never asks for this reply.
            return .response(
                HTTPResponse(
                    status: 500, headers: ["Content-Type": "text/plain; charset=utf-8"],
                    body: Data("MockServer: a recorded WebSocket conversation has no plain reply.\n".utf8)))
        }
    }
}
