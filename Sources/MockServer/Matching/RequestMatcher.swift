/// A custom matching condition for the odd API that the built-in rules cannot express.
///
/// Method and path still have to agree; within them, the closure alone decides (query, headers and body are
/// not compared unless it compares them, for instance with ``MatchRules/matches(_:_:)``). Interactions are
/// then tried one by one within the method-and-path bucket, so lookups cost grows with the bucket's size.
package struct RequestMatcher: Sendable {
    /// Whether `received` matches `recorded`; called from several threads at once.
    let matches: @Sendable (_ recorded: RecordedRequest, _ received: HTTPRequest) -> Bool

    /// Wraps a condition.
    init(_ matches: @escaping @Sendable (_ recorded: RecordedRequest, _ received: HTTPRequest) -> Bool) {
        self.matches = matches
    }

}
