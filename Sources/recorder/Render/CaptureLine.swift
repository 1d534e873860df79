import MockServer

/// The lines `recorder capture` prints: what it records into, one line per exchange as it happens, and a
/// summary when it stops. Targets are printed as recorded, so redacted secrets never reach a terminal or a
/// CI log.
enum CaptureLine {
    /// `Recording https://api.github.com into Recordings/api.github.com.json (a new cassette)`, or for new
    /// episodes of an existing cassette `... (it holds 3 interactions; requests they match are replayed)`.
    static func opening(upstream: Upstream, out: String, existing: Int?) -> String {
        let state = existing.map { "it holds \(counted($0, "interaction")); requests they match are replayed" } ?? "a new cassette"
        return "Recording \(upstream) into \(out) (\(state))"
    }

    /// `GET /users?since=0 → 200, 87 ms, 1234 bytes, interaction 0`; a failed upstream reads
    /// `GET /slow → 502 upstream timeout, 1001 ms, 160 bytes, interaction 1`; a failed save adds
    /// `, not saved yet: REASON`.
    static func exchange(_ exchange: ForwardedExchange) -> String {
        let request = exchange.interaction.request
        var status = String(exchange.status)
        if let failure = exchange.interaction.failure {
            status += " upstream \(failure.kind.rawValue)"
        }
        var text = "\(request.method) \(request.target) → \(status), \(exchange.interaction.durationMs ?? 0) ms, \(counted(exchange.bodyBytes, "byte"))"
        if let index = exchange.index {
            text += ", interaction \(index)"
        }
        if let error = exchange.saveError {
            text += ", not saved yet: \(error.description)"
        }
        return text
    }

    /// `GET /users → 200 replayed from api.github.com interaction 0`, for a request new-episodes mode
    /// answered from the cassette; secrets in the target are redacted with `rules`.
    static func replayed(_ entry: JournalEntry, redacting rules: RedactionRules) -> String {
        let status = entry.outcome.status.map { "\($0) " } ?? ""
        return "\(entry.request.method) \(rules.redact(target: entry.request.target)) → \(status)replayed from \(entry.outcome)"
    }

    /// `Stopped on SIGINT: 9 exchanges recorded; Recordings/x.json holds 9 interactions.`, with the
    /// replayed requests counted in new-episodes mode, or `...: nothing recorded; Recordings/x.json was
    /// not written.` (`is unchanged` when it existed).
    static func summary(signal: String, recorded: Int, replayed: Int?, out: String, cassette: Cassette?, existed: Bool) -> String {
        var counts = recorded == 0 ? "nothing recorded" : "\(counted(recorded, "exchange")) recorded"
        if let replayed {
            counts += ", \(counted(replayed, "request")) replayed"
        }
        let file: String
        if recorded > 0, let cassette {
            file = "\(out) holds \(counted(cassette.interactions.count, "interaction"))"
        } else {
            file = existed ? "\(out) is unchanged" : "\(out) was not written"
        }
        return "Stopped on \(signal): \(counts); \(file)."
    }
}
