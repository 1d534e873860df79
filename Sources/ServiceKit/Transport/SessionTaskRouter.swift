import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking

/// The one place that knows URLSession's delegate plumbing. Every task runs on the session delegate and is
/// routed by task identifier, because per-task delegates are never called on Linux and completion-handler
/// tasks get no upload progress there. State lives behind one lock.
final class SessionTaskRouter: NSObject, URLSessionDataDelegate, Sendable {
    private struct TaskState {
        var body = Data()
        var progress: UploadProgressHandler?
        var continuation: CheckedContinuation<TransportResponse, any Error>?
        /// The outcome when the task finished before its continuation was stored.
        var outcome: Result<TransportResponse, any Error>?
    }

    private let tasks = Lock<[Int: TaskState]>([:])

    /// Starts `task` and returns its complete response, or throws the session's error. Cancelling the
    /// calling Swift task cancels `task`, which then completes with `URLError.cancelled`.
    func run(_ task: URLSessionTask, uploadProgress: UploadProgressHandler?) async throws -> TransportResponse {
        let id = task.taskIdentifier
        tasks.withLock { $0[id] = TaskState(progress: uploadProgress) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // The task may already be finished (cancelled before it started): resume at once.
                let finished = tasks.withLock { tasks -> Result<TransportResponse, any Error>? in
                    if let outcome = tasks[id]?.outcome {
                        tasks[id] = nil
                        return outcome
                    }
                    tasks[id]?.continuation = continuation
                    return nil
                }
                if let finished {
                    continuation.resume(with: finished)
                } else {
                    task.resume()
                }
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        tasks.withLock { $0[dataTask.taskIdentifier]?.body.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
                    totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        let progress = tasks.withLock { $0[task.taskIdentifier]?.progress }
        progress?(UploadProgress(bytesSent: totalBytesSent, totalBytes: totalBytesExpectedToSend))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let id = task.taskIdentifier
        let ready = tasks.withLock { tasks -> (CheckedContinuation<TransportResponse, any Error>,
                                                Result<TransportResponse, any Error>)? in
            guard var state = tasks[id] else { return nil }
            let outcome = Self.outcome(of: task, body: state.body, error: error)
            guard let continuation = state.continuation else {
                state.outcome = outcome
                tasks[id] = state
                return nil
            }
            tasks[id] = nil
            return (continuation, outcome)
        }
        // Resumed outside the lock: the awaiting code may call back into the router.
        if let (continuation, outcome) = ready {
            continuation.resume(with: outcome)
        }
    }

    private static func outcome(of task: URLSessionTask, body: Data, error: (any Error)?)
        -> Result<TransportResponse, any Error> {
        if let error {
            return .failure(error)
        }
        guard let response = task.response as? HTTPURLResponse else {
            return .failure(URLError(.badServerResponse))
        }
        // allHeaderFields is a dictionary, so arrival order is already lost; sort by name to stay deterministic.
        let fields = response.allHeaderFields
            .map { ResponseHeaders.Field(name: "\($0.key)", value: "\($0.value)") }
            .sorted { $0.name.lowercased() < $1.name.lowercased() }
        return .success(TransportResponse(statusCode: response.statusCode, headers: ResponseHeaders(fields),
                                          body: body, url: response.url))
    }
}
