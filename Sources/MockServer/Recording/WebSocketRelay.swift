import Foundation
import ServiceReplayShared

/// Relays one WebSocket conversation between a recording server's client (``session``) and the upstream
/// (``upstream``, already upgraded), both ways, until either side ends it, and keeps every data message that
/// crossed with its side and its offset from the upgrade's answer, as a cassette stores them.
///
/// - Client to upstream: messages, and a close frame (its code and reason); a client that leaves ends the
///   upstream's connection too, without a close frame.
/// - Upstream to client: messages, a close frame (its code and reason, answered to the upstream), and the end of
///   the connection (the client's is ended too).
/// - Pings and pongs are answered on each side by the wire and are neither relayed nor kept.
/// - The first ending wins; nothing that crosses after it is relayed or kept, so that offsets never decrease and
///   the ending comes last.
/// - The upstream is read on a thread of its own (its client blocks), in reads of at most ``tick``, so that
///   ``stop`` (the server stopping) ends the relay within a tick: the conversation is then unfinished, and both
///   sides get close 1001 (going away).
final class WebSocketRelay: Sendable {
    /// The longest blocking read of the upstream before the relay looks whether it must end.
    static let tick: Duration = .milliseconds(50)
    /// How long, after a close frame went to the upstream, its answer is awaited.
    static let closeWait: Duration = .seconds(2)

    private struct State {
        var messages: [RecordedWebSocket.Message] = []
        var ending: RecordedWebSocket.Ending?
        /// A close frame went (or is going) to the upstream: no other may.
        var upstreamClosed = false
        /// When the upstream's answer to our close frame stops being awaited.
        var closeDeadline: ContinuousClock.Instant?
        /// The client left: the reader ends the upstream's connection.
        var clientLeft = false
    }

    let session: WebSocketSession
    let upstream: WebSocketClient
    /// What crossed so far, for the journal; fed as messages cross.
    let transcript: WebSocketTranscript
    /// Whether the server is stopping (``RecordingHandler/cutStreams()``).
    private let stop: @Sendable () -> Bool
    private let state = Lock(State())

    /// A relay between `session` (answered with its 101 just now, when `transcript` began) and `upstream`, ended
    /// early once `stop` says so.
    init(session: WebSocketSession, upstream: WebSocketClient, transcript: WebSocketTranscript, stop: @escaping @Sendable () -> Bool) {
        self.session = session
        self.upstream = upstream
        self.transcript = transcript
        self.stop = stop
    }

    /// Relays until the conversation ends; returns its messages and how it ended. The upstream's socket is closed
    /// when this returns.
    func run() async -> (messages: [RecordedWebSocket.Message], ending: RecordedWebSocket.Ending) {
        ServerTaskExecutor.task { await self.relayClient() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                self.relayUpstream()
                continuation.resume()
            }
            thread.name = "MockServer.WebSocketRelay"
            thread.start()
        }
        return state.withLock { ($0.messages, $0.ending ?? .unfinished) }
    }

    /// The client's side: its events until they end.
    private func relayClient() async {
        for await event in session.events {
            switch event {
            case .message(let message):
                guard note(from: .client, RecordedWebSocket.Content(message)) else { continue }
                // A failed send needs nothing here: the reader sees the upstream's end.
                try? upstream.send(message)
            case .closed(let close):
                end { .closed(by: .client, code: close.code.map(Int.init), reason: close.reason, offsetMs: $0) }
                closeUpstream(close)
            case .refused(let close):
                // The wire refused the client's frames and closed with `close`, as replay notes it.
                end { .closed(by: .server, code: close.code.map(Int.init), reason: close.reason, offsetMs: $0) }
                closeUpstream(close)
            case .ended:
                end { .dropped(by: .client, offsetMs: $0) }
                state.withLock { $0.clientLeft = true }
            }
        }
    }

    /// The upstream's side, on a thread of its own: reads until the upstream ends the conversation, the client
    /// left, our close frame was answered (or not in time), or the server stops; then closes the upstream's socket.
    private func relayUpstream() {
        defer { upstream.closeSocket() }
        let clock = ContinuousClock()
        while true {
            if stop() {
                end { _ in .unfinished }
                let goingAway = WebSocketClose(code: 1001, reason: "The recording server stopped.")
                closeUpstream(goingAway)
                session.close(goingAway)
                return
            }
            let (clientLeft, deadline) = state.withLock { ($0.clientLeft, $0.closeDeadline) }
            if clientLeft { return }
            if let deadline, clock.now >= deadline { return }
            let event: WebSocketClientEvent
            do {
                event = try upstream.receive(timeout: Self.tick)
            } catch {
                switch error {
                case .timedOut: continue
                case .protocolViolation(let close):
                    end(note: "The upstream broke the WebSocket protocol (\(close.code ?? 0)): \(close.reason)") { .dropped(by: .server, offsetMs: $0) }
                default:
                    end { .dropped(by: .server, offsetMs: $0) }
                }
                session.drop(reset: false)
                return
            }
            switch event {
            case .message(let message):
                if note(from: .server, RecordedWebSocket.Content(message)) { session.send(message) }
            case .ping, .pong:
                continue
            case .close(let close):
                // Our own close frame's answer ends the conversation; else the upstream closed first.
                if claimUpstreamClose() {
                    end { .closed(by: .server, code: close.code.map(Int.init), reason: close.reason, offsetMs: $0) }
                    session.close(close)
                    try? upstream.close(code: close.code, reason: close.reason)
                }
                return
            case .ended:
                end { .dropped(by: .server, offsetMs: $0) }
                session.drop(reset: false)
                return
            }
        }
    }

    /// Keeps a message that `side` sent now; `false` (nothing kept) once the conversation ended.
    private func note(from side: RecordedWebSocket.Side, _ content: RecordedWebSocket.Content) -> Bool {
        state.withLock { state in
            guard state.ending == nil else { return false }
            // Under the lock, so that offsets never decrease whichever side sends.
            state.messages.append(transcript.append(from: side, content))
            return true
        }
    }

    /// Notes the ending `make` builds for now, unless the conversation ended already.
    private func end(note: String? = nil, _ make: (_ offsetMs: Int) -> RecordedWebSocket.Ending) {
        state.withLock { state in
            guard state.ending == nil else { return }
            let ending = make(transcript.offsetMs)
            state.ending = ending
            transcript.end(ending, note: note)
        }
    }

    /// Claims the one close frame the upstream may be sent; `false` when one went already.
    private func claimUpstreamClose() -> Bool {
        state.withLock { state in
            guard !state.upstreamClosed else { return false }
            state.upstreamClosed = true
            state.closeDeadline = ContinuousClock.now + Self.closeWait
            return true
        }
    }

    /// Sends `close` to the upstream, unless a close frame went already.
    private func closeUpstream(_ close: WebSocketClose) {
        guard claimUpstreamClose() else { return }
        try? upstream.close(code: close.code, reason: close.reason)
    }
}
