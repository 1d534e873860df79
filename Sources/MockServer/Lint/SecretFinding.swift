/// A value in a recorded exchange that looks like a credential that was not redacted.
struct SecretFinding: Sendable, Hashable, CustomStringConvertible {
    /// Where it is: `request header Authorization`, `request query access_token`, `response body $.items[0].key`.
    let location: String
    /// Why it looks secret: `credential header`, `secret field`, `JSON Web Token`, `GitHub token`,
    /// `high-entropy string`, ...
    let reason: String

    /// Creates a finding.
    init(location: String, reason: String) {
        self.location = location
        self.reason = reason
    }

    /// `location: reason is not redacted`.
    package var description: String { "\(location): \(reason) is not redacted" }
}
