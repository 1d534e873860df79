import Foundation

/// One journal entry as the journal stores it: plain values. A plain match keeps the engine's
/// ``MatchedInteraction`` (one shared reference), and other outcomes are boxed, so a record takes about a
/// hundred bytes besides the request's own storage: the newest records of a busy server stay in few cache lines.
/// The public ``JournalEntry`` is built only when asked for.
struct JournalRecord: Sendable {
    enum Stored: Sendable {
        case matched(MatchedInteraction)
        case other(Box)
    }

    /// An outcome other than a plain match, out of line: they are rare, and large.
    final class Box: Sendable {
        let outcome: JournalOutcome
        /// What the client was sent, for the journal's HAR; `nil` for an unmatched request (its 404 is rebuilt
        /// from the near miss, redacted) or when not kept.
        let sent: Sent?
        /// The bytes of the response body `sent` holds that no cassette shares.
        let sentBytes: Int
        init(_ outcome: JournalOutcome, sent: Sent? = nil, sentBytes: Int = 0) {
            self.outcome = outcome
            self.sent = sent
            self.sentBytes = sentBytes
        }
    }

    /// What a request was sent, kept as it was at hand: converting it to a cassette's form (which parses a JSON
    /// body) waits until the HAR is asked for.
    enum Sent: Sendable {
        /// The reply a replay server gave (a fault's).
        case reply(HTTPReply)
        /// What a recording server recorded (redacted) or answered.
        case recorded(Interaction.Outcome)
    }

    let sequence: Int
    let time: Date
    let request: HTTPRequest
    let outcome: Stored
    let timing: JournalTiming

    /// The outcome as ``JournalOutcome`` spells it.
    var journalOutcome: JournalOutcome {
        switch outcome {
        case .matched(let matched): .matched(matched.reference, status: matched.status, replayedFailure: matched.failure)
        case .other(let box): box.outcome
        }
    }

    /// What the client was sent, when the journal keeps it (see ``Box/sent``).
    var sent: Sent? {
        switch outcome {
        case .matched(let matched): matched.recordedOutcome.map(Sent.recorded)
        case .other(let box): box.sent
        }
    }

    /// The bytes this record holds beyond its own fields and what cassettes share: the request's body, and a
    /// response body the journal alone keeps (a forwarded request's).
    var bodyBytes: Int {
        guard case .other(let box) = outcome else { return request.body.count }
        return request.body.count + box.sentBytes
    }

    var entry: JournalEntry {
        JournalEntry(sequence: sequence, time: time, request: request, outcome: journalOutcome, timing: timing)
    }
}

/// An interaction as answers and the journal name it once it matched: its reference and the status its reply
/// carries. A prepared cassette builds one per interaction, once, so that an answer and the journal entry it
/// leaves share it with one retain instead of copying the reference's strings per request.
final class MatchedInteraction: Sendable {
    let reference: InteractionReference
    /// The status of the recorded reply; `nil` for a replayed transport failure.
    let status: Int?
    /// The kind of the recorded transport failure it replays, `nil` when it answers.
    let failure: TransportFailure.Kind?

    /// Rebuilds the recorded answer as the cassette holds it, for the journal's HAR, from the form the engine
    /// keeps it in (the engine, above the journal, makes it); shared by the interactions of one cassette.
    private let recorded: RecordedOutcomes?

    init(
        reference: InteractionReference, status: Int?, failure: TransportFailure.Kind? = nil,
        recorded: RecordedOutcomes? = nil
    ) {
        self.reference = reference
        self.status = status
        self.failure = failure
        self.recorded = recorded
    }

    /// The recorded answer as the cassette holds it, when known.
    var recordedOutcome: Interaction.Outcome? {
        recorded?.outcome(reference.index)
    }
}

/// The recorded answers of one cassette's interactions, by position, as the cassette holds them: one per
/// prepared cassette, shared by its ``MatchedInteraction``s. A closure for each interaction instead took a
/// heap block each (136 bytes, 13.6 MB at 100,000 interactions). A journal entry keeps the answers of its whole
/// cassette alive with it, which the cassette's engine does anyway until the server switches cassettes.
final class RecordedOutcomes: Sendable {
    let outcome: @Sendable (Int) -> Interaction.Outcome

    init(_ outcome: @escaping @Sendable (Int) -> Interaction.Outcome) {
        self.outcome = outcome
    }
}
