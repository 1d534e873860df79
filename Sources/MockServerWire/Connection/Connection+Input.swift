import Foundation
import ServiceReplayShared

extension Connection {
    /// Reads once and keeps the bytes for parsing (or discards them when stalled or lingering).
    func readInput() {
        guard let region = input.writableRegion(limit: server.inputLimit) else { return }
        switch Sys.receive(fd, into: region.baseAddress!, count: region.count) {
        case .moved(let count):
            input.didWrite(count)
            lastActivity = loop.now
        case .endOfFile:
            peerClosedInput = true
        case .wouldBlock:
            return
        case .failed:
            closeNow()
            return
        }
        switch phase {
        case .stalled, .lingering:
            input.clear()
        default:
            break
        }
    }

    /// Parses and answers buffered requests while the connection is reading. Returns `true` when it
    /// stopped only because too much output is queued.
    @discardableResult
    func processRequests() -> Bool {
        parsing: while case .reading = phase {
            if output.pendingCount > Self.backpressureLimit { return true }
            if pendingHead != nil {
                guard readBody() else { break parsing }
                continue
            }
            guard !input.isEmpty else { break parsing }
            if headStartedAt == 0 { headStartedAt = loop.now }
            switch scanner.scan(input.unread, limits: server.limits) {
            case .incomplete:
                break parsing
            case .rejected(let rejection):
                reject(rejection)
            case .complete(let start, let end):
                headStartedAt = 0
                let head: RequestHead
                do {
                    head = try RequestHeadParser.parse(UnsafeRawBufferPointer(rebasing: input.unread[start..<end]), limits: server.limits)
                } catch {
                    reject(error)
                    return false
                }
                input.consume(end)
                scanner.reset()
                begin(head)
            }
        }
        if case .reading = phase, peerClosedInput {
            // Nothing more will arrive: answer what was complete, then close.
            phase = .closing(.graceful)
        }
        return false
    }

    private func begin(_ head: RequestHead) {
        if head.hasUnsupportedExpectation {
            reject(.unsupportedExpectation, head: head)
            return
        }
        switch head.framing {
        case .none:
            dispatch(head, body: Data())
            return
        case .length(let length):
            bodyState = .length(remaining: length)
        case .chunked:
            bodyState = .chunked(ChunkedBodyDecoder())
        }
        pendingHead = head
        body = Data()
        if head.expectsContinue && input.isEmpty {
            output.append("HTTP/1.1 100 Continue\r\n\r\n")
        }
    }

    /// Moves buffered body bytes into ``body``; returns `true` once the request was dispatched or rejected.
    private func readBody() -> Bool {
        switch bodyState {
        case .none:
            return finishBody()
        case .length(let remaining):
            if body.isEmpty, input.count >= remaining {
                body = Data(bytes: input.unread.baseAddress!, count: remaining)
                input.consume(remaining)
                return finishBody()
            }
            let take = min(remaining, input.count)
            if take > 0 {
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: input.unread[..<take]))
                input.consume(take)
            }
            if take == remaining { return finishBody() }
            bodyState = .length(remaining: remaining - take)
            return false
        case .chunked(var decoder):
            let (consumed, outcome) = decoder.decode(input.unread, into: &body, limits: server.limits)
            input.consume(consumed)
            bodyState = .chunked(decoder)
            switch outcome {
            case .needsMore:
                return false
            case .complete:
                return finishBody()
            case .rejected(let rejection):
                reject(rejection)
                return true
            }
        }
    }

    private func finishBody() -> Bool {
        guard let head = pendingHead else { return true }
        let complete = body
        pendingHead = nil
        bodyState = .none
        body = Data()
        dispatch(head, body: complete)
        return true
    }

    /// Hands one complete request to the handler and carries out its reply.
    private func dispatch(_ head: RequestHead, body: Data) {
        var request = head.request
        request.body = body
        // A client on a virtual clock names its transfer; the header is the clock's, never the request's.
        var pacing: VirtualPacing?
        if let transfer = request.headers[VirtualClock.transferHeader] {
            request.headers.remove(name: VirtualClock.transferHeader)
            pacing = server.clock?.pacing(for: transfer)
        }
        let context = HTTPRequestContext(connection: info, requestIndex: requestCount)
        requestCount += 1
        let reply = server.handler.reply(to: request, context: context)
        perform(reply, ReplyContext(isHEAD: head.isHEAD, keepAliveRequested: head.wantsKeepAlive, isHTTP10: head.isHTTP10, pacing: pacing))
    }

    /// Answers a request the server cannot serve with its status and a one-line reason, then closes; the
    /// request's `head`, by default the one whose body was being read, names it to the observer.
    func reject(_ rejection: RequestRejection, head: RequestHead? = nil) {
        let request = (head ?? pendingHead).map { "\($0.request.method) \($0.request.path)" }
        server.noteRejection(RejectedRequest(status: rejection.status, reason: rejection.reason, request: request))
        pendingHead = nil
        headStartedAt = 0
        bodyState = .none
        body = Data()
        scanner.reset()
        _ = ResponseWriter.write(
            rejection.response, framing: framing(for: ReplyContext(isHEAD: false, keepAliveRequested: false, isHTTP10: false)), into: &output)
        phase = .closing(.lingering)
    }
}
