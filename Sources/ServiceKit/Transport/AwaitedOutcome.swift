import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The outcome of a transfer that its caller awaits, whichever comes first: kept when the transfer settles before
/// anyone waits, handed to the waiting continuation when it settles after. Only the first outcome counts. Lives
/// behind its transfer's lock; the continuation is resumed outside it, through ``Resumption``.
struct AwaitedOutcome<Value: Sendable> {
    private var waiting: CheckedContinuation<Value, any Error>?
    private var kept: Result<Value, any Error>?
    /// Whether an outcome was given: later ones are ignored.
    private(set) var isSettled = false

    /// A continuation and the outcome to resume it with, once outside the lock.
    struct Resumption {
        let continuation: CheckedContinuation<Value, any Error>
        let outcome: Result<Value, any Error>

        func resume() {
            continuation.resume(with: outcome)
        }
    }

    /// The outcome if it came first (handed out once), or `nil` after storing `continuation` for ``settle(_:)``.
    mutating func wait(with continuation: CheckedContinuation<Value, any Error>) -> Result<Value, any Error>? {
        if let kept {
            self.kept = nil
            return kept
        }
        waiting = continuation
        return nil
    }

    /// Settles with `outcome` the first time: returns the resumption when someone waits, keeps the outcome for
    /// ``wait(with:)`` when nobody does yet; `nil` both then and on every later call.
    mutating func settle(_ outcome: Result<Value, any Error>) -> Resumption? {
        guard !isSettled else { return nil }
        isSettled = true
        guard let waiting else {
            kept = outcome
            return nil
        }
        self.waiting = nil
        return Resumption(continuation: waiting, outcome: outcome)
    }
}

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
