import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

/// One data task whose body is handed over as it arrives, fed by the session's ``SessionTaskRouter``. The head
/// is handed over with the first bytes of the body (or at the end of a response without one): that is the
/// first moment URLSession's data delegate is sure to have the response on every platform. Its state lives
/// behind one lock; continuations are resumed, and the timeout told or cancelled, outside it.
final class StreamedTransfer: SessionTaskHandler {
    private struct State {
        /// Kept only until the head is handed over: once its consumer drops it, it must end (and cancel).
        var body: AsyncThrowingStream<Data, any Error>?
        var head = AwaitedOutcome<StreamedResponse>()
        var timeout: TransferTimeout?
        /// Whether the transfer ended: later bytes and endings are ignored.
        var isFinished = false
    }

    private let task: URLSessionTask
    private let chunks: AsyncThrowingStream<Data, any Error>.Continuation
    private let state: Lock<State>

    private init(task: URLSessionTask) {
        self.task = task
        let (body, chunks) = AsyncThrowingStream<Data, any Error>.makeStream()
        chunks.onTermination = { termination in
            if case .cancelled = termination {
                task.cancel()
            }
        }
        self.chunks = chunks
        state = Lock(State(body: body))
    }

    /// Starts `task`, routed through `router`, and returns its head once the first bytes of the body (or the
    /// end of the response) arrived; the body follows as it arrives. Cancelling the calling Swift task before
    /// that, or ending the body's iteration after it, cancels `task`. With a `timeout`, the head, or the body
    /// after it, fails with `URLError.timedOut` once that long passes without bytes received.
    static func start(_ task: URLSessionTask, through router: SessionTaskRouter, timeout: Duration?) async throws -> StreamedResponse {
        let transfer = StreamedTransfer(task: task)
        router.route(task, to: transfer)
        if let timeout {
            // The timer starts under the lock, so that even an immediate expiry finds it in the state.
            transfer.state.withLock { state in
                state.timeout = TransferTimeout.failing(task, after: timeout) { [weak transfer] in transfer?.finish(error: $0) }
            }
        }
        return try await task.resumeAwaiting { continuation in
            // Only a task cancelled before it started can have an outcome already: it is complete.
            transfer.state.withLock { $0.head.wait(with: continuation) }
        }
    }

    func task(_ task: URLSessionDataTask, receivedResponse response: URLResponse) {
        // Handed over with the first bytes, but counted as progress now: a body that never follows times out
        // one timeout after the head.
        state.withLock { $0.isFinished ? nil : $0.timeout }?.noteHead()
    }

    func task(_ task: URLSessionDataTask, received data: Data) {
        let passed = state.withLock { state -> (TransferTimeout?, AwaitedOutcome<StreamedResponse>.Resumption?)? in
            guard !state.isFinished else { return nil }
            let head = handOverHead(error: nil, in: &state)
            return (state.timeout, head)
        }
        guard let (timeout, head) = passed else { return }
        timeout?.noteProgress()
        // Yielded before the head is handed over, so the body's first chunk is waiting when iteration starts.
        chunks.yield(data)
        head?.resume()
    }

    func task(_ task: URLSessionTask, completedWith error: (any Error)?) {
        finish(error: error)
    }

    /// Ends the transfer with `error` (`nil`: it completed): settles the head if nobody has it yet, and ends
    /// the body. Only the first call counts.
    private func finish(error: (any Error)?) {
        let ended = state.withLock { state -> (TransferTimeout?, AwaitedOutcome<StreamedResponse>.Resumption?)? in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            // A head not yet awaited keeps its outcome here until `start` collects it.
            let head = handOverHead(error: error, in: &state)
            return (state.timeout, head)
        }
        guard let (timeout, head) = ended else { return }
        timeout?.cancel()
        if let error {
            chunks.finish(throwing: error)
        } else {
            chunks.finish()
        }
        head?.resume()
    }

    /// Settles the head the first time there is something to say: kept in `state` when nobody awaits it yet,
    /// returned when someone does, `nil` when it was already settled.
    private func handOverHead(error: (any Error)?, in state: inout State) -> AwaitedOutcome<StreamedResponse>.Resumption? {
        guard !state.head.isSettled else { return nil }
        let outcome: Result<StreamedResponse, any Error>
        if let error {
            outcome = .failure(error)
        } else if let response = task.response as? HTTPURLResponse, let body = state.body {
            outcome = .success(
                StreamedResponse(
                    statusCode: response.statusCode, headers: ResponseHeaders(of: response),
                    body: body, url: response.url))
        } else {
            outcome = .failure(URLError(.badServerResponse))
        }
        state.body = nil
        return state.head.settle(outcome)
    }
}
