import Foundation

extension FaultDecision {
    /// A reply and the status the client sees with it (`nil` when the connection breaks before a status line).
    typealias Normal = (reply: HTTPReply, status: Int?)

    /// Whether this fault delays or damages the answer the request would have had (latency, throttle,
    /// truncate, malformed-chunk, corrupt-body, empty-body, content-type, graphql-error, the stream faults and the
    /// WebSocket faults), so the
    /// request is replayed first. Faults that replace the answer (refuse, reset, empty, stall, garbage, status,
    /// service-error) do not: they leave the cassette's sequence untouched, so that a retried request still
    /// gets the recorded response.
    var altersAnswer: Bool {
        switch fault.kind {
        case .refuse, .empty, .reset, .stall, .garbage, .status, .serviceError: false
        case .latency, .throttle, .truncate, .stallAfter, .eventLatency, .errorEvent, .malformedChunk, .corruptBody,
            .emptyBody, .contentType, .graphQLError, .webSocket:
            true
        }
    }

    /// The reply (and the status the client sees) this fault sends instead of `normal`.
    /// The reply and status sent when this fault fires, given `normal`, the reply the request would have had
    /// (see ``apply(to:)``, in the engine, which builds the answer from it).
    func carriedOut(_ normal: Normal) -> Normal {
        switch fault.kind {
        case .refuse, .empty:
            return (.close, status: nil)
        case .reset:
            return (.reset, status: nil)
        case .stall:
            return (.stall, status: nil)
        case .garbage(let count):
            return (.raw(garbage(count), then: .close), status: nil)
        case .status(let code, let retryAfter, let headers, let body):
            return respond(FaultResponses.status(code, retryAfter: retryAfter, headers: headers, body: body))
        case .serviceError(let name):
            return respond(template ?? FaultResponses.missingTemplate(name))
        case .graphQLError(let code):
            // The recorded data stays beside the error, as a server's partial answer: a service that reads data
            // and ignores errors then returns a value, which the fault matrix calls a swallowed error.
            return respond(FaultResponses.graphQLError(code: code, beside: normal.reply.wholeResponse))
        case .latency:
            return (.delayed(by: delay ?? .zero, normal.reply), status: normal.status)
        case .throttle(let rate):
            return (.throttled(bytesPerSecond: rate, normal.reply), status: normal.status)
        case .truncate(.event(let count)):
            guard var stream = normal.reply.stream else {
                return damaging(normal) { response in
                    (.raw(FaultResponses.truncated(response, at: .body(bytes: 0)), then: .close), status: response.status)
                }
            }
            stream.parts = Array(stream.parts.prefix(count))
            stream.ending = .cut
            return (.stream(stream), status: stream.head.status)
        case .stallAfter(let count):
            guard var stream = normal.reply.stream else { return (.stall, status: nil) }
            stream.parts = Array(stream.parts.prefix(count))
            stream.ending = .stall
            return (.stream(stream), status: stream.head.status)
        case .eventLatency:
            guard var stream = normal.reply.stream else { return normal }
            stream.extraGap = (delay ?? .zero).clampedNanoseconds
            return (.stream(stream), status: stream.head.status)
        case .errorEvent(let name, let count):
            let error = template ?? FaultResponses.missingTemplate(name)
            guard var stream = normal.reply.stream else { return respond(error) }
            let kept = stream.parts.prefix(count)
            let offset = count < stream.parts.count ? stream.parts[count].offset : (stream.parts.last?.offset ?? 0)
            stream.parts = Array(kept) + [HTTPStream.Part(offset: offset, bytes: FaultResponses.errorEvent(from: error))]
            stream.ending = .complete
            return (.stream(stream), status: stream.head.status)
        case .truncate(let point):
            return damaging(normal) { response in
                (.raw(FaultResponses.truncated(response, at: point), then: .close), status: point == .statusLine ? nil : response.status)
            }
        case .malformedChunk:
            return damaging(normal) { response in
                (.raw(FaultResponses.malformedChunked(response), then: .close), status: response.status)
            }
        case .corruptBody:
            return damaging(normal) { respond(FaultResponses.corrupted($0)) }
        case .emptyBody:
            return damaging(normal) { respond(FaultResponses.replacingBody(of: $0, with: Data())) }
        case .webSocket:
            // Carried out by the conversation's player (see ``apply(to:)``, in the engine): the 101 goes out as it would.
            return normal
        case .contentType(let type):
            return damaging(normal) { response in
                var changed = response
                changed.headers.set(name: "Content-Type", value: type)
                return respond(changed)
            }
        }
    }

    private func respond(_ response: HTTPResponse) -> Normal {
        (.response(response), status: response.status)
    }

    /// Damages the normal response; when the normal answer is itself a replayed transport failure, or a WebSocket
    /// upgrade, there is no response to damage, and that answer is carried out unchanged.
    private func damaging(_ normal: Normal, _ damage: (HTTPResponse) -> Normal) -> Normal {
        guard let response = normal.reply.wholeResponse else { return normal }
        return damage(response)
    }

    /// Seeded bytes that can never be read as an HTTP response: the first byte is not a letter.
    private func garbage(_ count: Int) -> Data {
        var bytes = SeededDraw.bytes(count, seed: byteSeed)
        if let first = bytes.first, first < 0x80 { bytes[0] = first | 0x80 }
        return Data(bytes)
    }
}

extension HTTPReply {
    /// The stream this reply sends, when it is one.
    fileprivate var stream: HTTPStream? {
        guard case .stream(let stream) = action else { return nil }
        return stream
    }

    /// The response a fault may damage as a whole: the response, or a stream as one body; `nil` for anything else
    /// (a replayed transport failure).
    fileprivate var wholeResponse: HTTPResponse? {
        switch action {
        case .response(let response): response
        case .stream(let stream): stream.wholeResponse
        default: nil
        }
    }
}
