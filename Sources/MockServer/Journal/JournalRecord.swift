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
        init(_ outcome: JournalOutcome) { self.outcome = outcome }
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

    init(reference: InteractionReference, status: Int?, failure: TransportFailure.Kind? = nil) {
        self.reference = reference
        self.status = status
        self.failure = failure
    }
}
