/// One problem ``CassetteLinter`` found in a cassette file; its ``description`` is one line naming the file,
/// the interaction (or error template) and the place.
package struct LintFinding: Sendable, Hashable, CustomStringConvertible {
    /// The family of problem. A closed set: these are the checks `recorder lint` runs.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The file does not load as a cassette (syntax, unknown or ill-typed field, unreadable file).
        case format
        /// An interaction that replay never needs: same request and same response as an earlier one.
        case duplicate
        /// A value that looks like a credential that was not redacted.
        case secret
        /// A recorded interaction holding a refused connection: the upstream could not be reached when it was
        /// recorded, and replay resets the connection every time.
        case unreachableUpstream
    }

    /// Which check found it.
    package let kind: Kind
    /// The sentence, starting with the file: `Recordings/github/users.json: interaction 2: request header
    /// Authorization: credential header is not redacted`.
    package let description: String

    /// Creates a finding from its kind and its full sentence.
    package init(kind: Kind, description: String) {
        self.kind = kind
        self.description = description
    }
}
