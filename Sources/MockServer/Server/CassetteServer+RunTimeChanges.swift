import ServiceReplayShared

// Steering a running server between requests, as a UI test does while the app runs: its fault plan, the cassettes
// it serves, and where their sequences stand. Each call puts a new state in force at once, for the next request
// on; the request path reads that state once per request (see ReplayHandler).

extension CassetteServer {
    /// Puts `plan` in force from the next request (and the next accepted connection) on; `nil`, or a plan
    /// without rules, clears the plan in force. The plan is checked against the cassettes served now exactly as
    /// ``init(cassettes:configuration:)`` checks the configuration's, and applies as if the server had started
    /// with it: each rule counts matching requests from zero, and draws from the plan's seed mixed with
    /// the identity of the test the server serves. A request already being answered keeps the plan it met; the journal
    /// names the rule each request met. ``faultPlan`` is the plan in force.
    /// - Throws: ``MockServerError`` `invalidFaultPlan` when a `service-error` or error-event rule names a
    ///   template none of the cassettes served holds (the initializer's sentence, naming the rule and the
    ///   templates there are); `invalidConfiguration` in a forwarding mode, where faults never apply (clearing
    ///   too). Either way the plan in force stays.
    public func setFaultPlan(_ plan: FaultPlan?) throws(MockServerError) {
        try refuseInForwardingMode(", where faults never apply: only a server in replay mode takes a fault plan")
        try controls.withLock { _ throws(MockServerError) in
            let engine = handler.current.engine
            let injector = try Self.checkedInjector(applying: plan, to: engine, identity: configuration.faultIdentity)
            handler.install(ReplayHandler.Setup(engine: engine, injector: injector))
        }
    }

    /// Serves `cassettes` (in precedence order, as the initializer takes them) instead of the cassettes served
    /// so far, from the next request on: a request they do not hold is answered 404 with its near miss, whatever
    /// the cassettes before held. A request already being answered is answered from the cassettes it met.
    ///
    /// Every sequence starts again from its first recorded answer. The interactions added with ``add(_:)`` stay,
    /// still answering first, their sequences started again too. The fault plan in force stays, checked
    /// against `cassettes` as the initializer checks it, its rules counting from zero again. The journal and
    /// ``unmatchedRequests`` keep what they hold; from here on ``verifyEveryInteractionUsed()`` asks about the
    /// interactions served now and counts only requests answered from them (journal entries number cassettes
    /// on across the switch: see ``InteractionReference/cassetteIndex``).
    /// - Throws: ``MockServerError`` `invalidFaultPlan` when the fault plan in force names a template none of
    ///   `cassettes` holds (replace or clear the plan first); `invalidConfiguration` in a forwarding mode, whose
    ///   replay is tied to the cassette file being recorded. Either way the server serves what it served.
    public func replaceCassettes(with cassettes: [Cassette]) throws(MockServerError) {
        try replaceCassettes(loaded: cassettes.map(LoadedCassette.init))
    }

    /// ``replaceCassettes(with:)`` for cassettes already read and prepared (see ``CassetteFileCache``), in replay
    /// mode.
    func replaceCassettes(loaded cassettes: [LoadedCassette]) throws(MockServerError) {
        try refuseInForwardingMode(": only a server in replay mode can replace its cassettes")
        try controls.withLock { _ throws(MockServerError) in
            let current = handler.current
            let engine = current.engine.replacingCassettes(with: cassettes)
            let injector: FaultInjector?
            do throws(MockServerError) {
                injector = try Self.checkedInjector(applying: current.injector?.plan, to: engine, identity: configuration.faultIdentity)
            } catch {
                throw MockServerError(error.code, "the cassettes were not replaced, as the fault plan in force does not fit them: \(error.reason)")
            }
            handler.install(ReplayHandler.Setup(engine: engine, injector: injector))
        }
    }

    /// Puts every sequence back to its start, from the next request on: every recorded interaction (those added
    /// with ``add(_:)`` included) answers as if no request had used it, so a sequence of recorded answers replays
    /// from its first again. The journal (what ``verifyEveryInteractionUsed()`` reads too), ``unmatchedRequests``
    /// and the counts of the fault plan's rules stay as they are; `journal.reset()` forgets the requests. In
    /// replay-or-record mode it resets what the recording replays; record and pass-through modes replay nothing.
    public func resetSequences() {
        engine.resetSequences()
    }

    /// The injector applying `plan` to what `engine` serves, or `nil` for no plan or one without rules: the one
    /// place a server checks a plan against its cassettes (see ``FaultInjector/init(plan:engine:identity:)``).
    static func checkedInjector(applying plan: FaultPlan?, to engine: ReplayEngine, identity: String?) throws(MockServerError) -> FaultInjector? {
        guard let plan, !plan.rules.isEmpty else { return nil }
        return try FaultInjector(plan: plan, engine: engine, identity: identity)
    }

    /// Throws `invalidConfiguration` in a forwarding mode, saying that the server forwards requests to the
    /// upstream, then `rest`.
    private func refuseInForwardingMode(_ rest: String) throws(MockServerError) {
        guard configuration.mode.forwards else { return }
        throw MockServerError(.invalidConfiguration, "the server is in \(configuration.mode) mode, which forwards requests to the upstream" + rest)
    }
}
