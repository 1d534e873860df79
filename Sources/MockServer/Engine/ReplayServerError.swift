/// A replay server's verification that failed, or a cassette it could not find; ``message`` says what
/// and, for unmatched requests, lists each near miss.
public struct ReplayServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The failure in words: one sentence, followed for unmatched requests by each near-miss report.
    public let message: String

    package init(_ message: String) {
        self.message = message
    }

    /// The same as ``message``.
    public var description: String { message }
}
