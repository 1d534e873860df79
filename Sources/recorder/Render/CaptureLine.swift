import MockServer

/// The lines `recorder capture` prints: what it records into, one line per exchange as it happens, and a
/// summary when it stops. Targets are printed as recorded, so redacted secrets never reach a terminal or a
/// CI log.
enum CaptureLine {
    /// `Recording https://api.github.com into Recordings/api.github.com.json (a new cassette)`, or for new
    /// episodes of an existing cassette `... (it holds 3 interactions; requests they match are replayed)`;
    /// `fromLog` when they come from the capture log an interrupted capture left
    /// (`... (its capture log from an interrupted capture holds 3 interactions; ...)`).
    static func opening(upstream: Upstream, out: String, existing: Int?, fromLog: Bool = false) -> String {
        let holder = fromLog ? "its capture log from an interrupted capture holds" : "it holds"
        let state = existing.map { "\(holder) \(counted($0, "interaction")); requests they match are replayed" } ?? "a new cassette"
        return "Recording \(upstream) into \(out) (\(state))"
    }

    /// `GET /users?since=0 → 200, 87 ms, 1234 bytes, interaction 0`; a failed upstream reads
    /// `GET /slow → 502 upstream timeout, 1001 ms, 160 bytes, interaction 1`; a streamed answer adds how many
    /// parts it had and how it ended unless properly (`, stream of 12 parts, broken by the upstream`, or
    /// `, unfinished` when stopping or the client cut it); a WebSocket conversation adds its messages and ending
    /// (``webSocket(_:)``); a failed save adds `, not saved yet: REASON`; an upstream that could not be reached, which is never recorded,
    /// reads `GET /health → 502 upstream refused, 1 ms, 160 bytes, not recorded: the upstream could not be reached`.
    static func exchange(_ exchange: ForwardedExchange) -> String {
        let request = exchange.interaction.request
        var status = String(exchange.status)
        if let failure = exchange.interaction.failure {
            status += " upstream \(failure.kind.rawValue)"
        }
        var text = "\(request.method) \(request.target) → \(status), \(exchange.interaction.durationMs ?? 0) ms, \(counted(exchange.bodyBytes, "byte"))"
        if case .stream(let stream)? = exchange.interaction.response?.body.form {
            text += ", stream of \(counted(stream.parts.count, "part"))"
            switch stream.ending {
            case .complete: break
            case .broken: text += ", broken by the upstream"
            case .unfinished: text += ", unfinished"
            }
        }
        if let conversation = exchange.interaction.webSocket {
            text += ", " + webSocket(conversation)
        }
        if let index = exchange.index {
            text += ", interaction \(index)"
        }
        if exchange.notRecorded {
            text +=
                exchange.interaction.failure?.kind == .timeout
                ? ", not recorded: the upstream sent nothing in time (see --upstream-timeout)"
                : ", not recorded: the upstream could not be reached"
        }
        if let error = exchange.saveError {
            text += ", not saved yet: \(error.description)"
        }
        return text
    }

    /// `WebSocket of 5 messages (3 from the client, 2 from the server), closed by the server (4000 see you)`; a
    /// conversation may also be `dropped by the client` or `unfinished` (open when the capture stopped).
    static func webSocket(_ conversation: RecordedWebSocket) -> String {
        let (client, server) = conversation.messageCounts
        var text = "WebSocket of \(counted(client + server, "message")) (\(client) from the client, \(server) from the server)"
        switch conversation.ending {
        case .closed(let side, let code, let reason, _):
            let detail = [code.map(String.init), reason.isEmpty ? nil : reason].compactMap { $0 }.joined(separator: " ")
            text += ", closed by the \(side.rawValue)" + (detail.isEmpty ? "" : " (\(detail))")
        case .dropped(let side, _):
            text += ", dropped by the \(side.rawValue)"
        case .unfinished:
            text += ", unfinished"
        }
        return text
    }

    /// The warning for a stream the upstream broke: `GET /events: the upstream broke the stream after 3
    /// parts (REASON); it is recorded as broken, and replay breaks it at the same point.`
    static func brokenStream(_ exchange: ForwardedExchange, reason: TransportFailure) -> String {
        let request = exchange.interaction.request
        var parts = 0
        if case .stream(let stream)? = exchange.interaction.response?.body.form { parts = stream.parts.count }
        let why = reason.message.map { " (\($0))" } ?? ""
        return "\(request.method) \(request.target): the upstream broke the stream after \(counted(parts, "part"))\(why); "
            + "it is recorded as broken, and replay breaks it at the same point."
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
