import Foundation

/// The state of an open WebSocket on a connection, confined to its loop. A class, so that the phase holding it
/// is not rewritten (and the payload being read not copied) at each frame.
final class WebSocketChannel {
    let session: WebSocketSession
    var parser: WebSocketFrameParser
    var assembler: WebSocketMessageAssembler
    /// Whether the server's close frame is queued: nothing more is sent after it, pongs included.
    var closeSent = false
    /// When the server's close handshake gives up waiting for the client's close frame; 0 until one is sent.
    var closeDeadline: UInt64 = 0

    init(session: WebSocketSession) {
        self.session = session
        parser = WebSocketFrameParser(role: .server, maxFrameSize: session.limits.maxFrameSize)
        assembler = WebSocketMessageAssembler(maxMessageSize: session.limits.maxMessageSize)
    }
}

extension Connection {
    /// How long a close handshake the server started waits for the client's close frame.
    static let webSocketCloseTime: UInt64 = 2_000_000_000

    /// Writes the session's 101 and turns the connection to WebSocket; a session another connection claimed gets a
    /// 500, and a response other than 101 is sent as it is (the session then ends).
    func startWebSocket(_ session: WebSocketSession, _ context: ReplyContext) {
        guard session.response.status == 101 else {
            session.deliver(.ended)
            perform(.response(session.response), context)
            return
        }
        deferredToken += 1
        let token = deferredToken
        let target = ConnectionReference(connection: self)
        let loop = loop
        // The wake-up runs as a later job on this loop, never inside this call.
        guard session.claim({ loop.execute { target.connection.webSocketPending(token: token) } }) else {
            perform(
                .response(
                    status: 500, headers: ["Content-Type": "text/plain; charset=utf-8"],
                    body: Data("This WebSocket session already served another connection.\n".utf8)), context)
            return
        }
        var framing = framing(for: context)
        framing.switchesProtocols = true
        _ = ResponseWriter.write(session.response, framing: framing, into: &output)
        phase = .webSocket(WebSocketChannel(session: session), token: token)
    }

    /// The session's handler sent something (on the loop thread): ``settle()`` takes it.
    func webSocketPending(token: UInt64) {
        guard !isClosed, case .webSocket(_, let expected) = phase, expected == token else { return }
        settle()
    }

    /// Reads the client's buffered frames while the socket is open: messages to the session, pings answered, a close
    /// answered and the connection closed, a violation refused. Returns `true` when it stopped only because too much
    /// output is queued.
    func processFrames() -> Bool {
        guard case .webSocket(let channel, _) = phase else { return false }
        while case .webSocket = phase, !input.isEmpty {
            if output.pendingCount > Self.backpressureLimit { return true }
            let (consumed, outcome) = channel.parser.parse(input.unread)
            input.consume(consumed)
            switch outcome {
            case .needsMore:
                return false
            case .refused(let close):
                refuseWebSocket(channel, close)
            case .frame(let frame):
                handle(frame, on: channel)
            }
        }
        return false
    }

    private func handle(_ frame: WebSocketFrame, on channel: WebSocketChannel) {
        switch channel.assembler.add(frame) {
        case .fragment, .pong:
            break
        case .message(let message):
            channel.session.deliver(.message(message))
        case .ping(let payload):
            guard !channel.closeSent else { return }
            output.append(body: WebSocketFrameWriter.encode(WebSocketFrame(opcode: .pong, payload: payload)))
        case .close(let close):
            if !channel.closeSent {
                // The answer carries the client's code and no reason (none at all for a close without a code).
                output.append(
                    body: WebSocketFrameWriter.encode(WebSocketFrame(opcode: .close, payload: WebSocketClose(code: close.code).payload)))
            }
            channel.session.deliver(.closed(close))
            input.clear()
            phase = .closing(.graceful)
        case .refused(let close):
            refuseWebSocket(channel, close)
        }
    }

    /// Fails the WebSocket (RFC 6455 §7.1.7): sends `close` unless a close went out already, tells the session, and
    /// closes, lingering so that the client reads the close frame rather than a reset caused by its unread frames.
    private func refuseWebSocket(_ channel: WebSocketChannel, _ close: WebSocketClose) {
        if !channel.closeSent {
            output.append(body: WebSocketFrameWriter.encode(WebSocketFrame(opcode: .close, payload: close.payload)))
        }
        channel.session.deliver(.refused(close))
        input.clear()
        phase = .closing(.lingering)
    }

    /// Queues what the session's handler sent since the last take, if the client has read enough of what came
    /// before (see ``takeRelayed()``). Returns whether anything was taken.
    func takeWebSocketOutbox() -> Bool {
        guard case .webSocket(let channel, _) = phase, output.pendingCount < Self.relayOutputLimit else { return false }
        let items = channel.session.take()
        for item in items {
            switch item {
            case .bytes(let bytes):
                output.append(body: bytes)
            case .close(let close):
                output.append(body: WebSocketFrameWriter.encode(WebSocketFrame(opcode: .close, payload: close.payload)))
                channel.closeSent = true
                channel.closeDeadline = loop.now + Self.webSocketCloseTime
            case .drop(let reset):
                // What was queued before still goes out when the socket takes it at once; a reset discards it.
                if !reset { flushBeforeDrop() }
                closeNow(reset: reset)
                return true
            }
        }
        return !items.isEmpty
    }

    private func flushBeforeDrop() {
        guard !output.isEmpty else { return }
        _ = output.flush(to: fd)
    }
}
