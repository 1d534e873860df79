import Foundation

// How an engine's answer goes into the journal. Here, in the engine, because the journal sits below it and
// knows nothing of answers.

extension JournalOutcome {
    /// The outcome of a server's answer: a fault (with the rule, seed, the interaction whose answer it altered
    /// and the status sent), matched (with the status, unless a transport failure was replayed), or unmatched
    /// with its near miss and 404.
    init(_ answer: ReplayAnswer) {
        if let fault = answer.fault {
            self = .faultInjected(rule: fault.description, seed: fault.seed, interaction: answer.interaction, status: answer.status)
        } else if let interaction = answer.interaction {
            self.init(kind: .matched, interaction: interaction, status: answer.status)
            replayedFailure = answer.matched?.failure
        } else {
            self.init(kind: .unmatched, nearMiss: answer.nearMiss, status: answer.status)
        }
        webSocket = answer.conversation?.player.transcript
    }
}

extension Journal {
    /// Adds `request` with the answer it got (as ``JournalOutcome/init(_:)`` spells it) without building the
    /// public entry, which is what a server does for every request; returns the entry's sequence number.
    @discardableResult
    package func append(_ request: HTTPRequest, answer: ReplayAnswer, at time: Date = Date()) -> Int {
        append(request, answer: answer, at: time, timing: .zero)
    }

    /// ``append(_:answer:at:)`` for an answer that took `timing`.
    func append(_ request: HTTPRequest, answer: ReplayAnswer, at time: Date, timing: JournalTiming) -> Int {
        if answer.isPlain, answer.conversation == nil, let matched = answer.matched, matched.status == answer.status {
            return append(request, matched: matched, at: time, timing: timing)
        }
        // An unmatched request's 404 is rebuilt from its near miss when asked for, redacted; it is not kept.
        let sent = answer.nearMiss != nil && answer.fault == nil ? nil : JournalRecord.Sent.reply(answer.reply)
        return append(
            request, outcome: JournalOutcome(answer), used: answer.fault == nil ? nil : answer.interaction, at: time, timing: timing, sent: sent)
    }

    /// Adds `request` with its answer, now, and hands the entry to `observer` (a server's `onRequest`); the
    /// public entry is built only when there is an observer; `start` is when the handler began on the request.
    /// What both handlers do with every replayed answer.
    func record(
        _ request: HTTPRequest, answer: ReplayAnswer, started start: ContinuousClock.Instant, observer: (@Sendable (JournalEntry) -> Void)?
    ) {
        let time = Date()
        let timing = JournalTiming(since: start, reply: answer.reply)
        let sequence = append(request, answer: answer, at: time, timing: timing)
        observer?(JournalEntry(sequence: sequence, time: time, request: request, outcome: JournalOutcome(answer), timing: timing))
    }
}
