import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayLocking

/// The one place that knows URLSession's delegate plumbing. Every task runs on the session delegate and is
/// routed by task identifier, because per-task delegates are never called on Linux and completion-handler
/// tasks get no upload progress there. State lives behind one lock; continuations are resumed outside it.
final class SessionTaskRouter: NSObject, URLSessionDataDelegate, Sendable {
    /// A task whose response is handed over whole.
    private struct WholeTask {
        var body = Data()
        var progress: UploadProgressHandler?
        var timeout: TransferTimeout?
        var continuation: CheckedContinuation<TransportResponse, any Error>?
        /// The outcome when the task finished before its continuation was stored.
        var outcome: Result<TransportResponse, any Error>?
    }

    /// A task whose body is handed over as it arrives. The head is handed over with the first bytes of the
    /// body (or at the end of a response without one): that is the first moment URLSession's data delegate
    /// is sure to have the response on every platform.
    private struct StreamedTask {
        /// Kept only until the head is handed over: once its consumer drops it, it must end (and cancel).
        var body: AsyncThrowingStream<Data, any Error>?
        let chunks: AsyncThrowingStream<Data, any Error>.Continuation
        var head: CheckedContinuation<StreamedResponse, any Error>?
        /// The head's outcome when the task got that far before its continuation was stored.
        var headOutcome: Result<StreamedResponse, any Error>?
        var headDelivered = false
        var timeout: TransferTimeout?
    }

    private struct Tasks {
        var whole: [Int: WholeTask] = [:]
        var streamed: [Int: StreamedTask] = [:]
    }

    private let tasks = Lock(Tasks())

    /// Starts `task` and returns its complete response, or throws the session's error. Cancelling the
    /// calling Swift task cancels `task`, which then completes with `URLError.cancelled`. With a `timeout`,
    /// the task fails with `URLError.timedOut` once that long passes without bytes sent or received.
    func run(_ task: URLSessionTask, timeout: Duration?, uploadProgress: UploadProgressHandler?) async throws -> TransportResponse {
        let id = task.taskIdentifier
        // The timer starts under the lock, so that even an immediate expiry finds the task's state.
        tasks.withLock { tasks in
            tasks.whole[id] = WholeTask(progress: uploadProgress, timeout: timeout.map { transferTimeout(for: task, limit: $0) })
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // The task may already be finished (cancelled before it started): resume at once.
                let finished = tasks.withLock { tasks -> Result<TransportResponse, any Error>? in
                    if let outcome = tasks.whole[id]?.outcome {
                        tasks.whole[id] = nil
                        return outcome
                    }
                    tasks.whole[id]?.continuation = continuation
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

    /// Starts `task` and returns its head once the first bytes of the body (or the end of the response)
    /// arrived; the body follows as it arrives. Cancelling the calling Swift task before that, or ending the
    /// body's iteration after it, cancels `task`. With a `timeout`, the head, or the body after it, fails
    /// with `URLError.timedOut` once that long passes without bytes received.
    func stream(_ task: URLSessionTask, timeout: Duration?) async throws -> StreamedResponse {
        let id = task.taskIdentifier
        let (body, chunks) = AsyncThrowingStream<Data, any Error>.makeStream()
        chunks.onTermination = { termination in
            if case .cancelled = termination {
                task.cancel()
            }
        }
        tasks.withLock { tasks in
            tasks.streamed[id] = StreamedTask(body: body, chunks: chunks, timeout: timeout.map { transferTimeout(for: task, limit: $0) })
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = tasks.withLock { tasks -> Result<StreamedResponse, any Error>? in
                    // Only a task cancelled before it started can have an outcome already: it is complete.
                    if let outcome = tasks.streamed[id]?.headOutcome {
                        tasks.streamed[id] = nil
                        return outcome
                    }
                    tasks.streamed[id]?.head = continuation
                    return nil
                }
                if let ready {
                    continuation.resume(with: ready)
                } else {
                    task.resume()
                }
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        // The timeout is told outside the lock: it has a lock of its own.
        let (timeout, streamed) = tasks.withLock { tasks -> (TransferTimeout?, (AsyncThrowingStream<Data, any Error>.Continuation, HeadHandOver?)?) in
            if tasks.whole[id] != nil {
                tasks.whole[id]?.body.append(data)
                return (tasks.whole[id]?.timeout, nil)
            }
            guard var state = tasks.streamed[id] else { return (nil, nil) }
            let head = Self.handOverHead(of: dataTask, error: nil, in: &state)
            tasks.streamed[id] = state
            return (state.timeout, (state.chunks, head))
        }
        timeout?.noteProgress()
        guard let (chunks, head) = streamed else { return }
        // Yielded before the head is handed over, so the body's first chunk is waiting when iteration starts.
        chunks.yield(data)
        head?.resume()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
                    totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        let (timeout, progress) = tasks.withLock { tasks in
            (tasks.whole[task.taskIdentifier]?.timeout, tasks.whole[task.taskIdentifier]?.progress)
        }
        timeout?.noteProgress()
        progress?(UploadProgress(bytesSent: totalBytesSent, totalBytes: totalBytesExpectedToSend))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        finish(task, error: error)
    }

    /// A timer that fails `task` as timed out after `limit` without progress: its outcome is settled at
    /// once, then the task is cancelled (its own completion, coming later, finds it settled).
    private func transferTimeout(for task: URLSessionTask, limit: Duration) -> TransferTimeout {
        TransferTimeout(limit: limit, hasHead: { task.response != nil }, onExpiry: { [weak self] in
            self?.finish(task, error: URLError(.timedOut))
            task.cancel()
        })
    }

    /// Settles `task` with `error` (`nil`: it completed): resumes whoever waits for it, or keeps the outcome
    /// for them. Only the first call for a task counts.
    private func finish(_ task: URLSessionTask, error: (any Error)?) {
        let id = task.taskIdentifier
        // Timeouts are cancelled outside the lock: they have a lock of their own.
        let (wholeTimeout, finishedWhole) = tasks.withLock { tasks -> (TransferTimeout?, (CheckedContinuation<TransportResponse, any Error>,
                                                                                         Result<TransportResponse, any Error>)?) in
            guard var state = tasks.whole[id], state.outcome == nil else { return (nil, nil) }
            let outcome = Self.outcome(of: task, body: state.body, error: error)
            guard let continuation = state.continuation else {
                state.outcome = outcome
                tasks.whole[id] = state
                return (state.timeout, nil)
            }
            tasks.whole[id] = nil
            return (state.timeout, (continuation, outcome))
        }
        wholeTimeout?.cancel()
        if let (continuation, outcome) = finishedWhole {
            continuation.resume(with: outcome)
            return
        }
        let (streamTimeout, finishedStream) = tasks.withLock { tasks -> (TransferTimeout?, (AsyncThrowingStream<Data, any Error>.Continuation, HeadHandOver?)?) in
            guard var state = tasks.streamed[id] else { return (nil, nil) }
            let head = Self.handOverHead(of: task, error: error, in: &state)
            // A head not yet awaited keeps its outcome here until `stream` collects it.
            tasks.streamed[id] = state.headOutcome == nil ? nil : state
            return (state.timeout, (state.chunks, head))
        }
        streamTimeout?.cancel()
        guard let (chunks, head) = finishedStream else { return }
        if let error {
            chunks.finish(throwing: error)
        } else {
            chunks.finish()
        }
        head?.resume()
    }

    /// A head ready to be handed to its waiting continuation, outside the lock.
    private struct HeadHandOver {
        let continuation: CheckedContinuation<StreamedResponse, any Error>
        let outcome: Result<StreamedResponse, any Error>

        func resume() {
            continuation.resume(with: outcome)
        }
    }

    /// Settles the head of a streamed task the first time there is something to say: kept in `state` when
    /// nobody awaits it yet, returned when someone does, `nil` when it was already delivered.
    private static func handOverHead(of task: URLSessionTask, error: (any Error)?,
                                     in state: inout StreamedTask) -> HeadHandOver? {
        guard !state.headDelivered, state.headOutcome == nil else { return nil }
        let outcome: Result<StreamedResponse, any Error>
        if let error {
            outcome = .failure(error)
        } else if let response = task.response as? HTTPURLResponse, let body = state.body {
            outcome = .success(StreamedResponse(statusCode: response.statusCode, headers: headers(of: response),
                                                body: body, url: response.url))
        } else {
            outcome = .failure(URLError(.badServerResponse))
        }
        state.body = nil
        guard let continuation = state.head else {
            state.headOutcome = outcome
            return nil
        }
        state.head = nil
        state.headDelivered = true
        return HeadHandOver(continuation: continuation, outcome: outcome)
    }

    private static func outcome(of task: URLSessionTask, body: Data, error: (any Error)?)
        -> Result<TransportResponse, any Error> {
        if let error {
            return .failure(error)
        }
        guard let response = task.response as? HTTPURLResponse else {
            return .failure(URLError(.badServerResponse))
        }
        return .success(TransportResponse(statusCode: response.statusCode, headers: headers(of: response),
                                          body: body, url: response.url))
    }

    /// allHeaderFields is a dictionary, so arrival order is already lost; sort by name to stay deterministic.
    private static func headers(of response: HTTPURLResponse) -> ResponseHeaders {
        let fields = response.allHeaderFields
            .map { ResponseHeaders.Field(name: "\($0.key)", value: "\($0.value)") }
            .sorted { $0.name.lowercased() < $1.name.lowercased() }
        return ResponseHeaders(fields)
    }
}
