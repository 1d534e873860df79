/// A failed journal assertion. Its ``description`` is the multi-line message a test should fail with; throwing
/// it from a test fails the test in Swift Testing and XCTest alike.
public struct JournalAssertionError: Error, Sendable, CustomStringConvertible {
    /// What was expected and what happened, with the relevant requests listed.
    public let description: String

    /// Creates an assertion failure with its message.
    public init(_ description: String) {
        self.description = description
    }
}
