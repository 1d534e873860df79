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
    /// session (a delayed or throttled 101, a fault that finds no response to damage); a reply that replaces the 101
    /// drops it, and the player never starts.
    func apply(to normal: ReplayAnswer?) -> ReplayAnswer {
        let (reply, status) = carriedOut(normal.map { ($0.reply, $0.status) } ?? (.close, nil))
        var answer = ReplayAnswer(
            matched: normal?.matched, isRepeat: normal?.isRepeat ?? false, nearMiss: normal?.nearMiss,
            fault: self, reply: reply, status: status)
        if let conversation = normal?.conversation, reply.webSocketSession === conversation.session { answer.conversation = conversation }
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
    /// - Throws: ``MockServerError`` `invalidFaultPlan` for any other rule naming a template no cassette holds,
    ///   naming the rule and the templates there are.
    convenience init(plan: FaultPlan, engine: ReplayEngine, identity: String? = nil) throws(MockServerError) {
        try self.init(plan: plan, identity: identity) { name, rule, index throws(MockServerError) in
            try Self.template(name, of: rule, at: index, in: engine)
        }
    }

    /// The template `name` that rule `index` sends, or `nil` when no cassette holds it and the rule selects
    /// none of the recorded requests.
    private static func template(_ name: String, of rule: FaultRule, at index: Int, in engine: ReplayEngine) throws(MockServerError) -> HTTPResponse? {
        if let template = engine.errorTemplate(named: name) { return template }
        let cassettes = engine.preparedCassettes
        let selects = cassettes.contains { cassette in
            cassette.requests.contains { request in
                // The body is read only for a rule that names an operation.
                let operations = rule.operation == nil ? [] : GraphQLRequest.operationNames(of: RequestParts(recorded: request).body)
                return rule.considers(
                    method: RequestParts.normalizeMethod(request.method), path: RequestParts.normalizedPath(of: request.target), operations: operations)
            }
        }
        guard selects else { return nil }
        let names = Set(cassettes.flatMap(\.metadata.errorTemplates.keys)).sorted()
        let existing =
            names.isEmpty
            ? "the cassettes served have no error templates"
            : "the templates there are: " + names.joined(separator: ", ")
        throw MockServerError(.invalidFaultPlan, "rule \(index + 1) ('\(rule)'): no cassette served has an error template named '\(name)'; \(existing)")
    }
}
