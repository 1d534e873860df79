/// A secret in a recorded exchange: where it is, and the rule that makes it one. A redaction pass finds one
/// per value it replaces; `recorder lint` reports those it would replace.
package struct SecretFinding: Sendable, Hashable, CustomStringConvertible {
    /// Where it is: `request header Authorization`, `request query access_token`, `response body $.items[0].key`,
    /// `response body text`, `response body part 3`.
    package let location: String
    /// Why it is a secret.
    package let rule: SecretRule

    /// Creates a finding.
    init(location: String, rule: SecretRule) {
        self.location = location
        self.rule = rule
    }

    /// `location: reason`.
    package var description: String { "\(location): \(rule.reason)" }
}
