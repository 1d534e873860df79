import Dispatch

/// Runs the server's own asynchronous work (forwarding to an upstream, answers computed by `async` code) on
/// Dispatch threads rather than Swift's cooperative pool. The pool has one thread per core and the tests
/// talking to the server share it: a test that blocks a pool thread, or a slow CPU-bound one (on a 2-core
/// machine, under ThreadSanitizer, seconds), would otherwise delay the server's answer past the client's
/// timeout.
///
/// Task executors need macOS 15 / iOS 18 (and the matching tvOS, watchOS, visionOS). Before those, the
/// work runs on the cooperative pool: every answer still comes, but a test that blocks the pool can delay it.
package enum ServerTaskExecutor {
    /// Starts `work` in an unstructured task, on Dispatch threads where the OS has task executors; its child
    /// tasks run there too.
    @discardableResult
    package static func task(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        if #available(Swift6Runtime , *) {
            return Task(executorPreference: DispatchTaskExecutor.shared, operation: work)
        }
        return Task(operation: work)
    }
}

/// The task executor behind ``ServerTaskExecutor``: a concurrent Dispatch queue.
@available(Swift6Runtime, *)
private final class DispatchTaskExecutor: TaskExecutor {
    static let shared = DispatchTaskExecutor()

    // Concurrent: jobs of one task never overlap anyway, and jobs of different tasks need not wait.
    private let queue = DispatchQueue(label: "MockServer.tasks", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
