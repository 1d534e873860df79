import Foundation

/// A fault plan, spec or plan file that cannot be used; ``message`` is one sentence naming the bad part.
public struct FaultPlanError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    /// One sentence naming the bad part and what would be accepted there.
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    /// The same sentence, for `localizedDescription`.
    public var errorDescription: String? { message }

    /// The same sentence.
    public var description: String { message }

    /// The same error with `context` (such as the spec or the file) in front of the sentence.
    func prefixed(_ context: String) -> FaultPlanError {
        FaultPlanError("\(context): \(message)")
    }
}
