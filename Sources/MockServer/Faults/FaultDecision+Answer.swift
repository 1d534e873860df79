import Foundation

extension FaultDecision {
    /// Whether this fault delays or damages the answer the request would have had (latency, throttle,
    /// truncate, malformed-chunk, corrupt-body, empty-body, content-type, and the stream faults), so the
    /// caller must replay the request first. Faults that replace the answer (refuse, reset, empty, stall,
    /// garbage, status, service-error) do not: they leave the cassette's sequence untouched, so that a
    /// retried request still gets the recorded response.
    var needsNormalAnswer: Bool {
        switch fault.kind {
        case .refuse, .empty, .reset, .stall, .garbage, .status, .serviceError: false
        case .latency, .throttle, .truncate, .stallAfter, .eventLatency, .errorEvent, .malformedChunk, .corruptBody,
             .emptyBody, .contentType: true
        }
    }

    /// Carries out this fault for one request: a plain function of the decision and of `normal`, the answer
    /// the request would have had, which the caller replays only when ``needsNormalAnswer`` says so (`nil`
    /// otherwise; a fault that needs it and is given none answers as for a replayed transport failure, by
    /// closing). Error templates come resolved with the decision. Faults that damage a response as a whole
    /// treat a stream as one body.
    func answer(normal given: NormalAnswer?) -> FaultAnswer {
        let normal = given ?? NormalAnswer(reply: .close, response: nil)
        switch fault.kind {
        case .refuse, .empty:
            return FaultAnswer(reply: .close, status: nil)
        case .reset:
            return FaultAnswer(reply: .reset, status: nil)
        case .stall:
            return FaultAnswer(reply: .stall, status: nil)
        case .garbage(let count):
            return FaultAnswer(reply: .raw(garbage(count), then: .close), status: nil)
        case .status(let code, let retryAfter, let headers, let body):
            return respond(FaultResponses.status(code, retryAfter: retryAfter, headers: headers, body: body))
        case .serviceError(let name):
            return respond(template ?? FaultResponses.missingTemplate(name))
        case .latency:
            let answer = normal
            return FaultAnswer(reply: .delayed(by: delay ?? .zero, answer.reply), status: answer.status)
        case .throttle(let rate):
            let answer = normal
            return FaultAnswer(reply: .throttled(bytesPerSecond: rate, answer.reply), status: answer.status)
        case .truncate(.event(let count)):
            let answer = normal
            guard var stream = answer.stream else {
                return damaging(answer) { response in
                    FaultAnswer(reply: .raw(FaultResponses.truncated(response, at: .body(bytes: 0)), then: .close), status: response.status)
                }
            }
            stream.parts = Array(stream.parts.prefix(count))
            stream.ending = .cut
            return FaultAnswer(reply: .stream(stream), status: stream.head.status)
        case .stallAfter(let count):
            let answer = normal
            guard var stream = answer.stream else { return FaultAnswer(reply: .stall, status: nil) }
            stream.parts = Array(stream.parts.prefix(count))
            stream.ending = .stall
            return FaultAnswer(reply: .stream(stream), status: stream.head.status)
        case .eventLatency:
            let answer = normal
            guard var stream = answer.stream else { return FaultAnswer(reply: answer.reply, status: answer.status) }
            stream.extraGap = (delay ?? .zero).clampedNanoseconds
            return FaultAnswer(reply: .stream(stream), status: stream.head.status)
        case .errorEvent(let name, let count):
            let answer = normal
            let error = template ?? FaultResponses.missingTemplate(name)
            guard var stream = answer.stream else { return respond(error) }
            let kept = stream.parts.prefix(count)
            let offset = count < stream.parts.count ? stream.parts[count].offset : (stream.parts.last?.offset ?? 0)
            stream.parts = Array(kept) + [HTTPStream.Part(offset: offset, bytes: FaultResponses.errorEvent(from: error))]
            stream.ending = .complete
            return FaultAnswer(reply: .stream(stream), status: stream.head.status)
        case .truncate(let point):
            return damaging(normal) { response in
                FaultAnswer(reply: .raw(FaultResponses.truncated(response, at: point), then: .close),
                            status: point == .statusLine ? nil : response.status)
            }
        case .malformedChunk:
            return damaging(normal) { response in
                FaultAnswer(reply: .raw(FaultResponses.malformedChunked(response), then: .close), status: response.status)
            }
        case .corruptBody:
            return damaging(normal) { respond(FaultResponses.corrupted($0)) }
        case .emptyBody:
            return damaging(normal) { respond(FaultResponses.replacingBody(of: $0, with: Data())) }
        case .contentType(let type):
            return damaging(normal) { response in
                var changed = response
                changed.headers.set(name: "Content-Type", value: type)
                return respond(changed)
            }
        }
    }

    private func respond(_ response: HTTPResponse) -> FaultAnswer {
        FaultAnswer(reply: .response(response), status: response.status)
    }

    /// Damages the normal response; when the normal answer is itself a replayed transport failure there
    /// is no response to damage, and that failure is carried out unchanged.
    private func damaging(_ answer: NormalAnswer, _ damage: (HTTPResponse) -> FaultAnswer) -> FaultAnswer {
        guard let response = answer.wholeResponse else { return FaultAnswer(reply: answer.reply, status: nil) }
        return damage(response)
    }

    /// Seeded bytes that can never be read as an HTTP response: the first byte is not a letter.
    private func garbage(_ count: Int) -> Data {
        var bytes = SeededDraw.bytes(count, seed: byteSeed)
        if let first = bytes.first, first < 0x80 { bytes[0] = first | 0x80 }
        return Data(bytes)
    }
}
