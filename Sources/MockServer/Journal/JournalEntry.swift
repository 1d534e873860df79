import Foundation

/// One request the server received, when, and what became of it.
public struct JournalEntry: Sendable, CustomStringConvertible {
    /// The position of this request among all recorded since the journal was created or reset, from 0.
    public let sequence: Int
    /// When the request arrived.
    public let time: Date
    /// The request as received.
    public let request: HTTPRequest
    /// What answered it.
    public let outcome: JournalOutcome
    /// How long it took, and the delay its answer was given.
    let timing: JournalTiming

    /// Creates an entry.
    init(sequence: Int, time: Date, request: HTTPRequest, outcome: JournalOutcome, timing: JournalTiming = .zero) {
        self.sequence = sequence
        self.time = time
        self.request = request
        self.outcome = outcome
        self.timing = timing
    }

    /// `#SEQUENCE METHOD TARGET → OUTCOME`.
    public var description: String { "#\(sequence) \(request.method) \(request.target) → \(outcome)" }
}
