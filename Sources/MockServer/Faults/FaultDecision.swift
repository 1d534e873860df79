/// A rule that fired for one request (or connection): what to inject and everything needed to replay the
/// same decision, for the journal.
struct FaultDecision: Sendable, Hashable, CustomStringConvertible {
    /// The fault to inject.
    let fault: Fault
    /// The rule's position in its plan, counting from 0.
    let ruleIndex: Int
    /// The rule that fired.
    let rule: FaultRule
    /// The plan's seed, which reproduces the decision (with the same test, for a server that serves one).
    let seed: UInt64
    /// The seed the draws used: ``seed``, mixed with the test's identity when there is one.
    let drawSeed: UInt64
    /// Which of the rule's matching requests (or connections, for `refuse`) this was, counting from 1.
    let count: Int
    /// For a latency fault, the delay drawn for this request; otherwise `nil`.
    let delay: Duration?
    /// For a `service-error` or error-event fault, the named error template, resolved when the injector was
    /// built; `nil` otherwise, or when no cassette holds it.
    var template: HTTPResponse? = nil
    /// Why the fault could not be carried out and the answer went out as it was (a WebSocket fault on an upgrade
    /// that no recorded conversation answers); `nil` when it was carried out.
    var unapplied: String? = nil

    /// The seed for this decision's own random bytes (garbage), derived from the draw seed, rule and count.
    var byteSeed: UInt64 {
        SeededDraw.bits(seed: drawSeed, rule: ruleIndex, count: count, stream: .garbage)
    }

    /// One line for logs and journals, without the seed (the journal keeps it apart):
    /// `rule 2 'status=503,when=first:2' on match 1`, plus the drawn delay for a random latency, and why the fault
    /// did not apply when it could not.
    package var description: String {
        var text = "rule \(ruleIndex + 1) '\(rule)' on match \(count)"
        if let delay, rule.fault.kind != .latency(.fixed(delay)) { text += ", delay \(DurationSpelling.format(delay))" }
        if let unapplied { text += ", not applied: \(unapplied)" }
        return text
    }
}
