import Foundation
import ServiceReplayShared

extension Connection {
    /// Carries out a handler's reply for the request described by `context`.
    func perform(_ reply: HTTPReply, _ context: ReplyContext) {
        switch reply.action {
        case .response(let response):
            if let rate = context.bytesPerSecond {
                var sink = DataSink()
                let keepAlive = ResponseWriter.write(response, framing: framing(for: context), into: &sink)
                startThrottle(sink.data, bytesPerSecond: rate, then: keepAlive ? .keepAlive : .close, context.pacing)
            } else {
                let keepAlive = ResponseWriter.write(response, framing: framing(for: context), into: &output)
                finish(keepAlive ? .keepAlive : .close)
            }
        case .raw(let bytes, let ending):
            // Keeping the connection would hang a client that expects the server to close.
            let ending = ending == .keepAlive && !context.keepAliveRequested ? .close : ending
            if let rate = context.bytesPerSecond {
                startThrottle(bytes, bytesPerSecond: rate, then: ending, context.pacing)
            } else {
                output.append(body: bytes)
                finish(ending)
            }
        case .close:
            finish(.close)
        case .reset:
            finish(.reset)
        case .stall:
            if let pacing = context.pacing { pacing.stall() } else { server.clock?.noteRealTimeAnswer() }
            finish(.stall)
        case .delayed(let nanoseconds, let inner):
            if context.pacing == nil { server.clock?.noteRealTimeAnswer() }
            phase = .delaying(inner, context)
            let now = now(context.pacing)
            plan(at: now.addingReportingOverflow(nanoseconds).overflow ? .max - 1 : now + nanoseconds, context.pacing)
        case .throttled(let rate, let inner):
            if context.pacing == nil { server.clock?.noteRealTimeAnswer() }
            var throttled = context
            throttled.bytesPerSecond = rate
            perform(inner, throttled)
        case .stream(let stream):
            if let rate = context.bytesPerSecond {
                perform(
                    .response(stream.wholeResponse),
                    ReplyContext(
                        isHEAD: context.isHEAD, keepAliveRequested: context.keepAliveRequested,
                        isHTTP10: context.isHTTP10, bytesPerSecond: rate, pacing: context.pacing))
            } else {
                startStream(stream, context)
            }
        case .live(let stream):
            startRelay(stream, context)
        case .webSocket(let session):
            startWebSocket(session, context)
        case .deferred(let body):
            deferredToken += 1
            let delivery = DeferredDelivery(loop: loop, target: ConnectionReference(connection: self), token: deferredToken)
            let pending = PendingAnswer(delivery: delivery)
            phase = .awaiting(pending, token: deferredToken, context)
            body(HTTPResponder(pending: pending))
        }
    }

    /// Applies how the connection continues once a reply's bytes are queued.
    private func finish(_ ending: HTTPReply.Ending) {
        switch ending {
        case .keepAlive:
            phase = .reading
        case .close:
            phase = .closing(.graceful)
        case .reset:
            phase = .closing(.reset)
        case .stall:
            phase = .stalled
            input.clear()
        }
    }

    /// Takes a deferred answer (on the loop thread) if the connection still waits for it.
    func receiveDeferred(_ reply: HTTPReply, token: UInt64) {
        guard !isClosed, case .awaiting(_, let expected, let context) = phase, expected == token else {
            // Too late: a WebSocket that will never open ends at once for its handler.
            reply.webSocketSession?.deliver(.ended)
            return
        }
        phase = .reading
        perform(reply, context)
        settle()
    }

    /// The time a planned action is measured on: the virtual clock pacing the answer, else the loop's.
    private func now(_ pacing: VirtualPacing?) -> UInt64 {
        pacing?.now ?? loop.now
    }

    /// Plans the next action for `deadline`: on the loop's clock, or, when a virtual clock paces the answer,
    /// whenever that clock reaches it (it then wakes the connection through its loop).
    private func plan(at deadline: UInt64, _ pacing: VirtualPacing?) {
        guard let pacing else {
            actionAt = max(1, deadline)
            return
        }
        virtualToken += 1
        let token = virtualToken
        let target = ConnectionReference(connection: self)
        let loop = loop
        pacing.park(until: deadline) { loop.execute { target.connection.virtualWake(token: token) } }
    }

    /// The virtual clock reached this connection's planned action (on the loop thread).
    func virtualWake(token: UInt64) {
        guard !isClosed, token == virtualToken else { return }
        runPlannedAction()
        settle()
    }

    /// Runs the planned action whose time has come: the end of a delay or the next throttled slice.
    func runPlannedAction() {
        switch phase {
        case .delaying(let reply, let context):
            phase = .reading
            perform(reply, context)
        case .throttling:
            sendThrottleSlice()
        case .streaming:
            sendDueStreamParts()
        default:
            break
        }
    }

    /// The server's additions for an answer to a request like `context`'s.
    func framing(for context: ReplyContext) -> ResponseFraming {
        var framing = ResponseFraming(isHEAD: context.isHEAD, keepAliveRequested: context.keepAliveRequested, isHTTP10: context.isHTTP10)
        if server.sendsDate {
            loop.dateCache.refresh()
            framing.dateLine = loop.dateCache.line
        }
        framing.serverLine = server.serverLine
        return framing
    }

    // MARK: - Streams

    /// Queues the head, then the parts due already, and plans the next.
    private func startStream(_ stream: HTTPStream, _ context: ReplyContext) {
        guard let (chunked, keepAlive) = writeStreamHead(stream.head, context) else { return }
        let pacing = context.pacing
        if pacing == nil, stream.parts.indices.last.map({ stream.due($0) > 0 }) == true { server.clock?.noteRealTimeAnswer() }
        phase = .streaming(
            StreamProgress(
                stream: stream, next: 0, start: now(pacing), chunked: chunked, keepAlive: keepAlive, pacing: pacing,
                countsBody: !stream.head.headers.contains("Content-Encoding")))
        pacing?.wrote(bodyBytes: 0)
        sendDueStreamParts()
    }

    /// Queues the head of a streamed body: chunked for HTTP/1.1, bare (then close) for HTTP/1.0, or bare
    /// after its `Content-Length` when its length is declared (`declaredLength`, which the head then carries). Returns
    /// whether parts are chunked and whether the connection may be kept, or `nil` when no body follows
    /// (HEAD, 204, 304), in which case the reply is finished.
    private func writeStreamHead(
        _ response: HTTPResponse, declaredLength: Int? = nil, _ context: ReplyContext
    ) -> (chunked: Bool, keepAlive: Bool)? {
        var framing = framing(for: context)
        let chunked = declaredLength == nil && !context.isHTTP10
        framing.streamsChunks = chunked
        framing.streamsDeclaredLength = declaredLength != nil
        var head = response
        if chunked { head.headers.add(name: "Transfer-Encoding", value: "chunked") }
        let keepAlive = ResponseWriter.write(head, framing: framing, into: &output)
        let status = response.status
        guard status >= 200, status != 204, status != 304, !context.isHEAD else {
            finish(keepAlive ? .keepAlive : .close)
            return nil
        }
        return (chunked, keepAlive && (chunked || declaredLength != nil))
    }

    /// Queues one part of a streamed body, chunk-framed or bare.
    private func appendStreamPart(_ bytes: Data, chunked: Bool) {
        guard !bytes.isEmpty else { return }
        guard chunked else {
            output.append(body: bytes)
            return
        }
        // A chunk-size line fits a small (inline) string: no allocation per part.
        var sizeLine = String(bytes.count, radix: 16)
        sizeLine += "\r\n"
        sizeLine.withUTF8 { output.append(UnsafeRawBufferPointer($0)) }
        output.append(body: bytes)
        output.append("\r\n")
    }

    /// Applies a stream's ending once its last part is queued.
    private func endStream(_ ending: HTTPStream.Ending, chunked: Bool, keepAlive: Bool) {
        switch ending {
        case .complete:
            if chunked { output.append("0\r\n\r\n") }
            finish(keepAlive ? .keepAlive : .close)
        case .cut:
            finish(.close)
        case .stall:
            finish(.stall)
        }
    }

    /// Queues the head of a live stream and asks its producer to wake the connection for each new part.
    private func startRelay(_ stream: LiveStream, _ context: ReplyContext) {
        guard let (chunked, keepAlive) = writeStreamHead(stream.head, declaredLength: stream.declaredLength, context) else {
            stream.cancel()
            return
        }
        deferredToken += 1
        let token = deferredToken
        phase = .relaying(
            Relay(stream: stream, chunked: chunked, keepAlive: keepAlive, remaining: stream.declaredLength), token: token)
        let target = ConnectionReference(connection: self)
        let loop = loop
        stream.attach { loop.execute { target.connection.relayPending(token: token) } }
    }

    /// The live stream's producer handed over something (on the loop thread): ``settle()`` takes it.
    func relayPending(token: UInt64) {
        guard !isClosed, case .relaying(_, let expected) = phase, expected == token else { return }
        settle()
    }

    /// Queues what the live stream's producer handed over since the last take, if the client has read enough
    /// of what came before (less than ``relayOutputLimit`` bytes unwritten); otherwise leaves it with the
    /// producer, whose wake-up stays spent until this takes again, so a client that does not read costs no
    /// wake-ups. Returns whether anything was taken.
    func takeRelayed() -> Bool {
        guard case .relaying(var relay, let token) = phase, output.pendingCount < Self.relayOutputLimit else { return false }
        let (parts, ending) = relay.stream.take()
        for part in parts {
            guard let remaining = relay.remaining else {
                appendStreamPart(part, chunked: relay.chunked)
                continue
            }
            // Never past the declared length: bytes beyond it would be read as the start of the next answer.
            appendStreamPart(part.count <= remaining ? part : part.prefix(remaining), chunked: false)
            relay.remaining = remaining - min(part.count, remaining)
        }
        if relay.remaining != nil { phase = .relaying(relay, token: token) }
        if let ending {
            // A body of declared length that ended short can only be cut: the client is waiting for the rest.
            endStream(ending, chunked: relay.chunked, keepAlive: relay.keepAlive && (relay.remaining ?? 0) == 0)
        }
        return !parts.isEmpty || ending != nil
    }

    /// Queues every part whose time has come; at the end, applies the stream's ending.
    private func sendDueStreamParts() {
        guard case .streaming(var progress) = phase else { return }
        let now = now(progress.pacing)
        var sent = 0
        while progress.next < progress.stream.parts.count, progress.start &+ progress.stream.due(progress.next) <= now {
            let bytes = progress.stream.parts[progress.next].bytes
            appendStreamPart(bytes, chunked: progress.chunked)
            sent += bytes.count
            progress.next += 1
        }
        if sent > 0 { progress.pacing?.wrote(bodyBytes: progress.countsBody ? sent : nil) }
        guard progress.next >= progress.stream.parts.count else {
            phase = .streaming(progress)
            plan(at: progress.start &+ progress.stream.due(progress.next), progress.pacing)
            return
        }
        if progress.stream.ending == .stall { progress.pacing?.stall() }
        endStream(progress.stream.ending, chunked: progress.chunked, keepAlive: progress.keepAlive)
    }

    // MARK: - Throttling

    /// One slice every 50 ms (1/20 of the rate) keeps the pace even without being too chatty; below
    /// 20 bytes per second, one byte per 1/rate seconds. Never faster than the rate, never overflowing.
    private func startThrottle(_ bytes: Data, bytesPerSecond: Int, then ending: HTTPReply.Ending, _ pacing: VirtualPacing?) {
        let rate = UInt64(max(1, bytesPerSecond))
        let slice = rate >= 20 ? Int(rate / 20) : 1
        let interval: UInt64 = rate >= 20 ? 50_000_000 : 1_000_000_000 / rate
        phase = .throttling(Throttle(bytes: bytes, offset: 0, slice: slice, interval: interval, ending: ending, pacing: pacing))
        sendThrottleSlice()
    }

    /// Queues the next slice once the previous one has left, then plans the one after. On a virtual clock a
    /// slice goes at each interval whether or not the last one has left: the pace is the clock's alone.
    private func sendThrottleSlice() {
        guard case .throttling(var throttle) = phase else { return }
        if output.isEmpty || throttle.pacing != nil, throttle.offset < throttle.bytes.count {
            let end = min(throttle.offset + throttle.slice, throttle.bytes.count)
            throttle.bytes.withUnsafeBytes { bytes in
                output.append(UnsafeRawBufferPointer(rebasing: bytes[throttle.offset..<end]))
            }
            throttle.offset = end
            throttle.pacing?.wrote(bodyBytes: 0)
        }
        if throttle.offset >= throttle.bytes.count {
            if throttle.ending == .stall { throttle.pacing?.stall() }
            finish(throttle.ending)
            return
        }
        phase = .throttling(throttle)
        plan(at: now(throttle.pacing) + throttle.interval, throttle.pacing)
    }
}
