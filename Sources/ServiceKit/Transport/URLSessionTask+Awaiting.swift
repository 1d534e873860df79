import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTask {
    /// Hands the caller's continuation to `install` and starts the task, unless `install` returns the outcome
    /// already there (only a task cancelled before it started has one), which resumes at once. Cancelling the
    /// calling Swift task cancels this task. What ``WholeTransfer`` and ``StreamedTransfer`` await.
    func resumeAwaiting<Outcome: Sendable>(
        _ install: (CheckedContinuation<Outcome, any Error>) -> Result<Outcome, any Error>?
    ) async throws -> Outcome {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if let ready = install(continuation) {
                    continuation.resume(with: ready)
                } else {
                    resume()
                }
            }
        } onCancel: {
            cancel()
        }
    }
}
