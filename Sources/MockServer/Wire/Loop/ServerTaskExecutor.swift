import Dispatch

/// Runs the server's own asynchronous work (forwarding to an upstream, answers computed by `async` code) on
/// Dispatch threads rather than Swift's cooperative pool. The pool has one thread per core and the tests
/// talking to the server share it: a test that blocks a pool thread, or a slow CPU-bound one (on a 2-core
/// machine, under ThreadSanitizer, seconds), would otherwise delay the server's answer past the client's
/// timeout.
final class ServerTaskExecutor: TaskExecutor {
    static let shared = ServerTaskExecutor()

    // Concurrent: jobs of one task never overlap anyway, and jobs of different tasks need not wait.
    private let queue = DispatchQueue(label: "MockServer.tasks", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Starts `work` in an unstructured task on this executor; its child tasks run here too.
    @discardableResult
    static func task(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        Task(executorPreference: shared, operation: work)
    }
}
