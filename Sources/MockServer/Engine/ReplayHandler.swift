import Foundation
import ServiceReplayShared

/// The ``HTTPHandler`` behind a ``CassetteServer``: fault plan first, then the replay engine, and every
/// request into the journal (see ``reply(to:context:)``). Runs on event-loop threads, and on a routed client's
/// thread for a request answered in-process, so it never blocks.
final class ReplayHandler: HTTPHandler {
    /// What answers requests: the engine and the fault plan's injector, replaced together by
    /// ``install(_:)`` and read together once per request, so that a request never meets a plan checked
    /// against other cassettes than the ones answering it.
    struct Setup: Sendable {
        let engine: ReplayEngine
        let injector: FaultInjector?
    }

    let journal: Journal
    let refusals: Lock<[FaultDecision]>
    /// Unmatched requests' reports for strict mode, whatever the journal keeps.
    let unmatched = UnmatchedRequests()
    private let setup: Lock<Setup>
    private let observer: (@Sendable (JournalEntry) -> Void)?
    private let streamTiming: StreamTiming
    /// Where a conversation's near miss goes: the unmatched reports, then the configuration's observer.
    private let reportConversationNearMiss: @Sendable (NearMiss) -> Void

    init(
        engine: ReplayEngine, journal: Journal, injector: FaultInjector?, streamTiming: StreamTiming = .recorded,
        observer: (@Sendable (JournalEntry) -> Void)?, onConversationNearMiss: (@Sendable (NearMiss) -> Void)? = nil
    ) {
        reportConversationNearMiss = { [unmatched] nearMiss in
            unmatched.append(nearMiss)
            onConversationNearMiss?(nearMiss)
        }
        self.streamTiming = streamTiming
        self.journal = journal
        self.observer = observer
        self.refusals = Lock([])
        setup = Lock(Setup(engine: engine, injector: injector))
    }

    /// The engine and injector in force now.
    var current: Setup {
        setup.withLock { $0 }
    }

    /// Puts `new` in force from the next request (or connection) on; one already being answered keeps the
    /// setup it read. The setup replaced is released outside the lock, so that freeing a large engine never
    /// holds up a request.
    func install(_ new: Setup) {
        _ = setup.withLock { setup in
            let replaced = setup
            setup = new
            return replaced
        }
    }

    func admission(for connection: HTTPConnectionInfo) -> HTTPAdmission {
        guard let injector = current.injector, injector.hasAcceptRules, let decision = injector.decisionOnAccept() else { return .accept }
        refusals.withLock { $0.append(decision) }
        return .close
    }

    /// One request's road: parsed once; the setup read once; the fault plan decides (once); the engine
    /// answers, unless the fault replaces its answer; the fault, if any, turns that answer into the one sent;
    /// the journal keeps it.
    func reply(to received: HTTPRequest, context: HTTPRequestContext) -> HTTPReply {
        let start = ContinuousClock.now
        if let restored = received.routedHostRestored { return reply(to: restored, started: start) }
        return reply(to: received, started: start)
    }

    private func reply(to request: HTTPRequest, started start: ContinuousClock.Instant) -> HTTPReply {
        let parts = RequestParts(received: request)
        let setup = current
        let answer: ReplayAnswer
        // Without a plan no fault decision is made or copied: it is a large value, and this is every request.
        if let injector = setup.injector, let fault = injector.decision(for: parts) {
            answer = self.answer(request, parts: parts, under: fault, from: setup.engine)
        } else {
            answer = setup.engine.answer(request, parts: parts, streamTiming: streamTiming)
            if let nearMiss = answer.nearMiss { unmatched.append(nearMiss) }
        }
        journal.record(request, answer: answer, started: start, observer: observer)
        answer.conversation?.start(report: reportConversationNearMiss)
        return answer.reply
    }

    /// The answer when `fault` fired for `request`: replayed by `engine` first when the fault alters that
    /// answer, not asked for when it replaces it.
    private func answer(_ request: HTTPRequest, parts: RequestParts, under fault: FaultDecision, from engine: ReplayEngine) -> ReplayAnswer {
        guard fault.altersAnswer else {
            // A fault that replaces the answer must not hide a request the cassettes do not hold from strict mode.
            if let nearMiss = engine.nearMissIfUnrecorded(request, parts: parts) { unmatched.append(nearMiss) }
            return fault.apply(to: nil)
        }
        let normal = engine.answer(request, parts: parts, streamTiming: streamTiming)
        if let nearMiss = normal.nearMiss { unmatched.append(nearMiss) }
        return fault.apply(to: normal)
    }
}
