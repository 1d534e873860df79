import Foundation

/// One journal entry as the journal stores it. A matched outcome keeps the engine's match (a reference to the
/// prepared cassette and a position) instead of a copy of its interaction reference, and other outcomes are
/// boxed, so a record takes about a hundred bytes besides the request's own storage; the public
/// ``JournalEntry`` is built only when asked for.
struct JournalRecord: Sendable {
    enum Outcome: Sendable {
        case matched(ReplayMatch)
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
    let outcome: Outcome

    /// The outcome as ``JournalOutcome`` spells it.
    var journalOutcome: JournalOutcome {
        switch outcome {
        case .matched(let match): .matched(match.interaction, status: match.status)
        case .other(let box): box.outcome
        }
    }

    var entry: JournalEntry {
        JournalEntry(sequence: sequence, time: time, request: request, outcome: journalOutcome)
    }
}
