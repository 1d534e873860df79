extension Journal {
    /// Requests listed in an assertion message before the rest are summarized.
    static let listedEntryLimit = 10

    /// Throws unless exactly `expected` kept entries match `pattern`. The message lists the matching requests,
    /// or the requests received when none matched.
    public func verify(_ pattern: RequestPattern, calledTimes expected: Int) throws(MockServerError) {
        let all = entries
        let matching = all.filter { pattern.matches($0.request) }
        guard matching.count != expected else { return }
        var message = "Expected \(pattern) to be called \(Journal.times(expected)), but it was "
        if matching.isEmpty {
            message += "never called."
            message += Journal.listing("Requests received", all)
        } else {
            message += "called \(Journal.times(matching.count)):" + Journal.listing(nil, matching)
        }
        throw MockServerError(.assertionFailed, message + droppedNote())
    }

    /// Throws if any kept entry matches `pattern`, listing them.
    public func verifyNeverCalled(_ pattern: RequestPattern) throws(MockServerError) {
        let matching = entries(matching: pattern)
        guard !matching.isEmpty else { return }
        throw MockServerError(
            .assertionFailed,
            "Expected \(pattern) never to be called, but it was called \(Journal.times(matching.count)):"
                + Journal.listing(nil, matching) + droppedNote())
    }

    /// Throws if some interaction among `interactions` (an engine's, ``ReplayEngine/interactions``) was never
    /// used, listing each by cassette, index, method and target.
    func verifyEveryInteractionUsed(among interactions: [InteractionReference]) throws(MockServerError) {
        let unused = unusedInteractions(among: interactions)
        guard !unused.isEmpty else { return }
        let total = interactions.count
        var lines = ["\(unused.count) of \(total) recorded interaction\(total == 1 ? " was" : "s were") never used:"]
        lines += unused.prefix(20).map { "  \($0)" }
        if unused.count > 20 { lines.append("  … and \(unused.count - 20) more") }
        throw MockServerError(.assertionFailed, lines.joined(separator: "\n"))
    }

    static func times(_ count: Int) -> String { count == 1 ? "1 time" : "\(count) times" }

    static func listing(_ title: String?, _ entries: [JournalEntry]) -> String {
        var lines: [String] = []
        if let title { lines.append(entries.isEmpty ? "\(title): none." : "\(title) (\(entries.count)):") }
        lines += entries.prefix(listedEntryLimit).map { "  \($0)" }
        if entries.count > listedEntryLimit { lines.append("  … and \(entries.count - listedEntryLimit) more") }
        return lines.isEmpty ? "" : (title == nil ? "\n" : " ") + lines.joined(separator: "\n")
    }

    private func droppedNote() -> String {
        let dropped = droppedCount
        guard dropped > 0 else { return "" }
        return "\n(The journal dropped its \(dropped) oldest entries to stay within its limits; counts cover the rest.)"
    }
}
