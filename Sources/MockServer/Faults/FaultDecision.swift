/// A rule that fired for one request (or connection): what to inject and everything needed to replay the
/// same decision, for the journal.
public struct FaultDecision: Sendable, Hashable, CustomStringConvertible {
    /// The fault to inject.
    public let fault: Fault
    /// The rule's position in its plan, counting from 0.
    public let ruleIndex: Int
    /// The rule that fired.
    public let rule: FaultRule
    /// The plan's seed.
    public let seed: UInt64
    /// Which of the rule's matching requests (or connections, for `refuse`) this was, counting from 1.
    public let count: Int
    /// For a latency fault, the delay drawn for this request; otherwise `nil`.
    public let delay: Duration?

    /// The seed for this decision's own random bytes (garbage), derived from the plan seed, rule and count.
    var byteSeed: UInt64 {
        SeededDraw.bits(seed: seed, rule: ruleIndex, count: count, stream: .garbage)
    }

    /// One line for logs and journals, without the seed (the journal keeps it apart):
    /// `rule 2 'status=503,when=first:2' on match 1`, plus the drawn delay for a random latency.
    public var description: String {
        var text = "rule \(ruleIndex + 1) '\(rule)' on match \(count)"
        if let delay, rule.fault.kind != .latency(.fixed(delay)) { text += ", delay \(DurationSpelling.format(delay))" }
        return text
    }
}
