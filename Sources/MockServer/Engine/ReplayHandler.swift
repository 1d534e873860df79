import Locking

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

    init(engine: ReplayEngine, journal: Journal, injector: FaultInjector?, observer: (@Sendable (JournalEntry) -> Void)?) {
        self.engine = engine
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
        if let injector, let fault = injector.decision(method: request.method, path: request.path, isApplicable: hasTemplate) {
            return inject(fault, into: request)
        }
        let decision = replay(request)
        if let observer {
            observer(journal.record(request, decision: decision))
        } else {
            journal.append(request, decision: decision)
        }
        return Self.normalAnswer(decision).reply
    }

    private func inject(_ fault: FaultDecision, into request: HTTPRequest) -> HTTPReply {
        var replayed: ReplayDecision?
        let answer = fault.answer(
            normal: {
                let decision = replay(request)
                replayed = decision
                return Self.normalAnswer(decision)
            },
            template: { engine.errorTemplate(named: $0) })
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

    /// `service-error` rules apply only where a cassette holds their template; every other fault applies.
    private func hasTemplate(_ fault: Fault) -> Bool {
        guard case .serviceError(let name) = fault.kind else { return true }
        return engine.errorTemplate(named: name) != nil
    }

    static func normalAnswer(_ decision: ReplayDecision) -> NormalAnswer {
        switch decision {
        case .matched(let match):
            switch match.reply {
            case .response(let response): NormalAnswer(reply: .response(response), response: response)
            case .failure(let failure): NormalAnswer(reply: failure.reply, response: nil)
            }
        case .unmatched(let nearMiss):
            NormalAnswer(reply: .response(nearMiss.response), response: nearMiss.response)
        }
    }
}
