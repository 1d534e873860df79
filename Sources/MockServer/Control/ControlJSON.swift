import Foundation

/// The JSON shapes of the control API, one function per shape, credentials redacted by the rules given.
enum ControlJSON {
    /// One journal entry: `sequence`, `time` (ISO 8601, UTC), `method`, `target`, `headers` (`[[name, value]]`),
    /// `body` (text) or `bodyBase64`, `outcome`, `timing` (``timing(_:)``), and for a GraphQL request
    /// `operations` (its operation names).
    static func entry(_ entry: JournalEntry, redaction: RedactionRules) -> CassetteJSON {
        let request = redaction.redact(entry.request)
        var object: [String: CassetteJSON] = [
            "sequence": .number(JSONNumber(entry.sequence)),
            "time": .string(CassetteDate.format(entry.time)),
            "method": .string(request.method),
            "target": .string(request.target),
            "headers": .array(request.headers.lines.map { .array([.string($0.name), .string($0.value)]) }),
            "outcome": outcome(entry.outcome, redaction: redaction),
            "timing": timing(entry.timing),
        ]
        let operations = entry.request.graphQLOperations
        if !operations.isEmpty { object["operations"] = .array(operations.map(CassetteJSON.string)) }
        if !request.body.isEmpty {
            if let text = String(validUTF8: request.body) {
                object["body"] = .string(text)
            } else {
                object["bodyBase64"] = .string(request.body.base64EncodedString())
            }
        }
        return CassetteJSON.sortedObject(object)
    }

    /// `{"durationMs": 0.042, "delayMs": 0}`: how long the server took to choose the answer (for a forwarded
    /// request, the upstream exchange), and the delay it gave the answer on purpose (a latency fault), in
    /// milliseconds to the microsecond.
    static func timing(_ timing: JournalTiming) -> CassetteJSON {
        CassetteJSON.sortedObject(["durationMs": milliseconds(timing.duration), "delayMs": milliseconds(timing.delay)])
    }

    /// `duration` in milliseconds, to the microsecond, as a JSON number (`12.345`, `0`).
    static func milliseconds(_ duration: Duration) -> CassetteJSON {
        let (seconds, attoseconds) = duration.components
        let microseconds = max(0, seconds) * 1_000_000 + max(0, attoseconds) / 1_000_000_000_000
        let whole = microseconds / 1000, fraction = microseconds % 1000
        var text = String(whole)
        if fraction != 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: 3 - digits.count) + digits
            while text.hasSuffix("0") { text.removeLast() }
        }
        return .number(JSONNumber(trustedLiteral: text))
    }

    /// `kind` (`matched`, `unmatched`, `fault`, `recorded`, …), and when they apply `status`, `interaction`
    /// (a reference), `fault` (the rule as its plan spells it), `seed`, `nearMiss` and `webSocket` (``webSocket(_:)``).
    static func outcome(_ outcome: JournalOutcome, redaction: RedactionRules) -> CassetteJSON {
        var object: [String: CassetteJSON] = ["kind": .string(outcome.kind.rawValue)]
        if let status = outcome.status { object["status"] = .number(JSONNumber(status)) }
        if let interaction = outcome.interaction { object["interaction"] = interaction.json }
        if let rule = outcome.faultRule { object["fault"] = .string(rule) }
        if let seed = outcome.faultSeed { object["seed"] = .number(JSONNumber(trustedLiteral: String(seed))) }
        if let nearMiss = outcome.nearMiss { object["nearMiss"] = self.nearMiss(nearMiss, redaction: redaction) }
        if let transcript = outcome.webSocket { object["webSocket"] = webSocket(transcript.snapshot) }
        return CassetteJSON.sortedObject(object)
    }

    /// A near miss as the 404 body gives it (``NearMiss/json(target:message:)``), with credentials redacted
    /// (``NearMiss/redacted(by:)``).
    static func nearMiss(_ nearMiss: NearMiss, redaction: RedactionRules) -> CassetteJSON {
        nearMiss.redacted(by: redaction).json()
    }

    /// A WebSocket conversation so far: `messages` as a cassette writes them (`from`, `offsetMs`, `text` or
    /// `base64`; the first 1,000), `messageCount` (all of them), and once it ended, `close` or `dropped` as in a
    /// cassette (left out while open or unfinished), and `note` when the server ended it on purpose (a near miss,
    /// a fault).
    static func webSocket(_ snapshot: WebSocketTranscript.Snapshot) -> CassetteJSON {
        var object: [String: CassetteJSON] = [
            "messages": .array(snapshot.messages.map(\.jsonValue)),
            "messageCount": .number(JSONNumber(snapshot.messageCount)),
        ]
        if let ending = snapshot.ending {
            let recorded = RecordedWebSocket(response: RecordedResponse(status: 101), messages: [], ending: ending).jsonValue
            if case .object(let members) = recorded {
                object["close"] = members["close"]
                object["dropped"] = members["dropped"]
            }
            object["open"] = .bool(false)
        } else {
            object["open"] = .bool(true)
        }
        object["note"] = snapshot.note.map(CassetteJSON.string)
        return .sortedObject(object)
    }
}
