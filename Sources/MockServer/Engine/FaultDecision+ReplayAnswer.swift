// How a fault turns the engine's answer into the one sent. Here, in the engine, because the faults sit below
// it: they alter replies (``FaultDecision/carriedOut(_:)``) and know nothing of answers.

extension FaultDecision {
    /// The answer sent when this fault fires for a request: a plain function of the decision and of `normal`,
    /// the engine's answer to the request, replayed only when ``altersAnswer`` says so (`nil` otherwise; a
    /// fault that alters the answer and is given none answers as for a replayed transport failure, by
    /// closing). Error templates come resolved with the decision. Faults that damage a response as a whole
    /// treat a stream as one body. The result names the fault and the interaction whose answer it altered.
    ///
    /// A recorded WebSocket conversation goes with its session: it still plays when the reply sent upgrades to that
    /// session (a delayed or throttled 101, a fault that finds no response to damage), with a WebSocket fault handed
    /// to its player; a reply that replaces the 101 drops it, and the player never starts. A WebSocket fault on an
    /// answer that is no conversation leaves the answer as it was, and the decision says it could not apply.
    func apply(to normal: ReplayAnswer?) -> ReplayAnswer {
        let (reply, status) = carriedOut(normal.map { ($0.reply, $0.status) } ?? (.close, nil))
        var decision = self
        var conversation = normal?.conversation
        if let pending = conversation, reply.webSocketSession !== pending.session { conversation = nil }
        if let fault = fault.webSocketFault {
            if conversation == nil {
                decision.unapplied = "the answer is no recorded WebSocket conversation"
            } else {
                conversation?.player.fault = fault
            }
        }
        var answer = ReplayAnswer(
            matched: normal?.matched, isRepeat: normal?.isRepeat ?? false, nearMiss: normal?.nearMiss,
            fault: decision, reply: reply, status: status)
        answer.conversation = conversation
        return answer
    }
}

extension FaultInjector {
    /// Starts applying `plan` to the requests `engine` answers, its random draws made for the test `identity`
    /// names (`nil`: no test in particular, the plan's seed alone; see ``SeededDraw/seed(_:identity:)``),
    /// looking up here, once, the error template of
    /// each `service-error` and error-event rule in the engine's cassettes (which must all be loaded by now).
    /// A rule whose filters select none of the cassettes' recorded requests may name a template they lack: it
    /// is aimed at another API (a suite-wide plan from `MOCKSERVER_FAULTS` aims rules by path) and never
    /// applies here.
    /// A WebSocket rule is checked the same way: one whose filters select recorded requests but none that holds a
    /// WebSocket conversation could never apply.
    /// - Throws: ``MockServerError`` `invalidFaultPlan` for any other rule naming a template no cassette holds,
    ///   naming the rule and the templates there are, or for a WebSocket rule that selects no recorded conversation.
    convenience init(plan: FaultPlan, engine: ReplayEngine, identity: String? = nil) throws(MockServerError) {
        try FaultInjector.checkWebSocketRules(of: plan, in: engine)
        try self.init(plan: plan, identity: identity) { name, rule, index throws(MockServerError) in
            try Self.template(name, of: rule, at: index, in: engine)
        }
    }

    /// The template `name` that rule `index` sends, or `nil` when no cassette holds it and the rule selects
    /// none of the recorded requests.
    private static func template(_ name: String, of rule: FaultRule, at index: Int, in engine: ReplayEngine) throws(MockServerError) -> HTTPResponse? {
        if let template = engine.errorTemplate(named: name) { return template }
        let cassettes = engine.preparedCassettes
        guard cassettes.contains(where: { cassette in cassette.requests.contains { selects(rule, request: $0) } }) else { return nil }
        let names = Set(cassettes.flatMap(\.metadata.errorTemplates.keys)).sorted()
        let existing =
            names.isEmpty
            ? "the cassettes served have no error templates"
            : "the templates there are: " + names.joined(separator: ", ")
        throw MockServerError(.invalidFaultPlan, "rule \(index + 1) ('\(rule)'): no cassette served has an error template named '\(name)'; \(existing)")
    }

    /// Throws for the first WebSocket rule of `plan` whose filters select some of `engine`'s recorded requests but
    /// none that holds a WebSocket conversation. A rule that selects none at all is aimed at another API.
    private static func checkWebSocketRules(of plan: FaultPlan, in engine: ReplayEngine) throws(MockServerError) {
        for (index, rule) in plan.rules.enumerated() where rule.fault.webSocketFault != nil {
            var selectsRequests = false
            var selectsConversation = false
            for cassette in engine.preparedCassettes {
                for (member, request) in cassette.requests.enumerated() where selects(rule, request: request) {
                    selectsRequests = true
                    if cassette.replies[member].isWebSocket { selectsConversation = true }
                }
            }
            if selectsRequests && !selectsConversation {
                throw MockServerError(
                    .invalidFaultPlan,
                    "rule \(index + 1) ('\(rule)'): no cassette served holds a WebSocket conversation it selects, and WebSocket faults apply only to a recorded conversation's upgrade"
                )
            }
        }
    }

    /// Whether `rule`'s filters select the recorded `request`.
    private static func selects(_ rule: FaultRule, request: RecordedRequest) -> Bool {
        // The body is read only for a rule that names an operation.
        let operations = rule.operation == nil ? [] : GraphQLRequest.operationNames(of: RequestParts(recorded: request).body)
        return rule.considers(
            method: RequestParts.normalizeMethod(request.method), path: RequestParts.normalizedPath(of: request.target), operations: operations)
    }
}
