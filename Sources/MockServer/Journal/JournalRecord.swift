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

    /// The outcome as ``JournalOutcome`` spells it.
    var journalOutcome: JournalOutcome {
        switch outcome {
        case .matched(let matched): .matched(matched.reference, status: matched.status, replayedFailure: matched.failure)
        case .other(let box): box.outcome
        }
    }

    var entry: JournalEntry {
        JournalEntry(sequence: sequence, time: time, request: request, outcome: journalOutcome)
    }
}
