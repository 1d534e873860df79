import ServiceReplayLocking

/// The ``HTTPHandler`` behind a ``ReplayServer``: fault plan first, then the replay engine, and every
/// request into the journal. Runs on event-loop threads, so it never blocks.
final class ReplayHandler: HTTPHandler {
    let engine: ReplayEngine
    let journal: Journal
    let injector: FaultInjector?
    let refusals: Lock<[FaultDecision]>
    /// Unmatched requests' reports for strict mode, whatever the journal keeps.
    let unmatched = UnmatchedRequests()
    private let observer: (@Sendable (JournalEntry) -> Void)?
    private let checksAdmission: Bool
    private let streamTiming: StreamTiming

    init(engine: ReplayEngine, journal: Journal, injector: FaultInjector?, streamTiming: StreamTiming = .recorded,
         observer: (@Sendable (JournalEntry) -> Void)?) {
        self.engine = engine
        self.streamTiming = streamTiming
        self.journal = journal
        self.injector = injector
        self.observer = observer
        self.refusals = Lock([])
        self.checksAdmission = injector?.hasAcceptRules ?? false
    }

    func admission(for connection: HTTPConnectionInfo) -> HTTPAdmission {
        guard checksAdmission, let decision = injector?.decisionOnAccept() else { return .accept }
        refusals.withLock { $0.append(decision) }
        return .close
    }

    func reply(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPReply {
        if let injector, let fault = injector.decision(for: request) {
            return inject(fault, into: request)
        }
        let decision = replay(request)
        if let observer {
            observer(journal.record(request, decision: decision))
        } else {
            journal.append(request, decision: decision)
        }
        return Self.normalAnswer(decision, streamTiming: streamTiming).reply
    }

    private func inject(_ fault: FaultDecision, into request: HTTPRequest) -> HTTPReply {
        // Replayed before the fault is carried out, and only for faults that alter the normal answer: the
        // fault then works on values, with no call back into this handler.
        let replayed = fault.needsNormalAnswer ? replay(request) : nil
        // A fault that replaces the answer must not hide a request the cassettes do not hold from strict mode.
        if replayed == nil, let nearMiss = engine.nearMissIfUnrecorded(request) { unmatched.append(nearMiss) }
        let answer = fault.answer(normal: replayed.map { Self.normalAnswer($0, streamTiming: streamTiming) })
        let entry = journal.record(request, outcome: .faultInjected(rule: fault.description, seed: fault.seed,
                                                                     interaction: replayed?.interaction, status: answer.status))
        observer?(entry)
        return answer.reply
    }

    /// The engine's answer, with an unmatched request noted for strict mode (also when a fault delays it).
    private func replay(_ request: HTTPRequest) -> ReplayDecision {
        let decision = engine.answer(request)
        if case .unmatched(let nearMiss) = decision { unmatched.append(nearMiss) }
        return decision
    }


    private static func timed(_ recorded: HTTPStream, _ timing: StreamTiming) -> NormalAnswer {
        var stream = recorded
        stream.timeScale = timing.scale
        return NormalAnswer(reply: .stream(stream), response: nil, stream: stream)
    }

    /// What `decision` answers without faults; a stream is timed as `streamTiming` says.
    static func normalAnswer(_ decision: ReplayDecision, streamTiming: StreamTiming) -> NormalAnswer {
        switch decision {
        case .matched(let match):
            switch match.reply {
            case .response(let response): NormalAnswer(reply: .response(response), response: response)
            case .failure(let failure): NormalAnswer(reply: failure.reply, response: nil)
            case .stream(let recorded): timed(recorded, streamTiming)
            }
        case .unmatched(let nearMiss):
            NormalAnswer(reply: .response(nearMiss.response), response: nearMiss.response)
        }
    }
}
