import Foundation

/// The journal as a HAR 1.2 archive, for `GET /__mockserver/journal.har`: one entry per request kept, oldest
/// first, written by the package's one HAR writer (``Cassette/har()``) from the journal seen as a cassette.
///
/// Each entry's URL is the server's address followed by the request's target; the request is redacted as the
/// rest of the journal is; `startedDateTime` is when it was answered and `time` the entry's timing (the time to
/// choose the answer plus a latency fault's delay), in whole milliseconds. The response is the one sent: a
/// recorded interaction's as its cassette holds it (a stream with its parts); a fault's as the fault made it
/// (a stream as one body; a reset, a close, a stall or raw bytes as a failed entry, status 0, saying which);
/// a forwarded request's as recorded (redacted); an unmatched request's 404 with its near miss, redacted. The
/// log's comment says how many older requests the journal had already dropped.
enum JournalHAR {
    /// The archive of `journal`, its URLs under `base` (`http://127.0.0.1:PORT`), redacted by `redaction`.
    static func document(of journal: Journal, base: String, redaction: RedactionRules) throws(MockServerError) -> HARDocument {
        let (records, _) = journal.records(since: 0)
        let dropped = records.first?.sequence ?? journal.position.next
        let cassette = Cassette(
            name: "journal", upstream: base,
            note: "The MockServer journal: \(records.count) requests kept, \(dropped) older ones dropped.",
            interactions: records.map { interaction($0, redaction: redaction) })
        return try cassette.har()
    }

    /// One record as an interaction: its request redacted, what was sent, when and how long.
    static func interaction(_ record: JournalRecord, redaction: RedactionRules) -> Interaction {
        let timing = record.timing
        let milliseconds = (timing.duration + timing.delay) / .milliseconds(1)
        return Interaction(
            request: RecordedRequest(redaction.redact(record.request)), outcome: sent(record, redaction: redaction),
            recordedAt: record.time, durationMs: Int(milliseconds.rounded()))
    }

    /// What `record`'s client was sent, as a cassette holds an answer: for a WebSocket, the upgrade's answer and
    /// the conversation so far (`_webSocketMessages` in the HAR, as browsers write them).
    private static func sent(_ record: JournalRecord, redaction: RedactionRules) -> Interaction.Outcome {
        let outcome = sentAnswer(record, redaction: redaction)
        guard let transcript = record.journalOutcome.webSocket, let response = outcome.upgradeResponse else { return outcome }
        let snapshot = transcript.snapshot
        return .webSocket(RecordedWebSocket(response: response, messages: snapshot.messages, ending: snapshot.ending ?? .unfinished))
    }

    private static func sentAnswer(_ record: JournalRecord, redaction: RedactionRules) -> Interaction.Outcome {
        switch record.sent {
        case .recorded(let outcome):
            return outcome
        case .reply(let reply):
            return outcome(of: reply)
        case nil:
            let outcome = record.journalOutcome
            if let nearMiss = outcome.nearMiss {
                // An unmatched request is always answered 404 (see NearMiss.response).
                let body = ControlJSON.nearMiss(nearMiss, redaction: redaction).serialized(pretty: true)
                let type = "application/json; charset=utf-8"
                return .response(
                    RecordedResponse(
                        status: 404, headers: HTTPHeaders(pairs: [("Content-Type", type)]),
                        body: RecordedBody(body, contentType: type)))
            }
            // An entry a test appended itself: only its status is known.
            return .response(RecordedResponse(status: outcome.status ?? 0))
        }
    }

    /// A reply as a cassette holds an answer: a response as it is, a stream as one body, a delay or a throttle
    /// as what it delays, and what breaks the connection as the failure the client saw.
    static func outcome(of reply: HTTPReply) -> Interaction.Outcome {
        switch reply.action {
        case .response(let response): .response(RecordedResponse(response))
        case .stream(let stream): .response(RecordedResponse(stream.wholeResponse))
        case .delayed(_, let inner), .throttled(_, let inner): outcome(of: inner)
        case .reset: .failure(TransportFailure(kind: .reset, message: "a fault reset the connection"))
        case .close: .failure(TransportFailure(kind: .reset, message: "a fault closed the connection without an answer"))
        case .raw: .failure(TransportFailure(kind: .reset, message: "a fault sent bytes that are no HTTP answer, then closed"))
        case .stall: .failure(TransportFailure(kind: .timeout, message: "a fault left the connection without an answer"))
        // The upgrade's answer is what the journal holds of a WebSocket; its messages are not an HTTP body.
        case .webSocket(let session): .response(RecordedResponse(session.response))
        case .deferred, .live: .failure(TransportFailure(kind: .timeout, message: "the answer came later, and the journal does not hold it"))
        }
    }
}

extension Interaction.Outcome {
    /// The upgrade's answer of a WebSocket entry: the `101` sent; `nil` when the client was sent something else.
    fileprivate var upgradeResponse: RecordedResponse? {
        switch self {
        case .response(let response) where response.status == 101: response
        case .webSocket(let conversation): conversation.response
        default: nil
        }
    }
}
