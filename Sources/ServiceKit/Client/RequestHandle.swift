import Foundation

/// A call started with a completion handler. ``cancel()`` stops it: the request in flight is cancelled and
/// the completion handler receives `.network(.cancelled)`, once, unless it had already been called.
public final class RequestHandle: Sendable {
    private let task: Task<Void, Never>

    init(task: Task<Void, Never>) {
        self.task = task
    }

    /// Cancels the call; calling it again, or after completion, does nothing.
    public func cancel() {
        task.cancel()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { task.isCancelled }
}
