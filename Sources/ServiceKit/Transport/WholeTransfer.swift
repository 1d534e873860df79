import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

/// One data task whose response is handed over whole, fed by the session's ``SessionTaskRouter``. Its state
/// lives behind one lock; the continuation is resumed, and the timeout told or cancelled, outside it (the
/// timeout has a lock of its own).
final class WholeTransfer: SessionTaskHandler {
    private struct State {
        var body = Data()
        var timeout: TransferTimeout?
        /// Only the first ending (completion or timeout) counts.
        var response = AwaitedOutcome<TransportResponse>()
    }

    private let task: URLSessionTask
    private let progress: UploadProgressHandler?
    private let state = Lock(State())

    private init(task: URLSessionTask, progress: UploadProgressHandler?) {
        self.task = task
        self.progress = progress
    }

    /// Starts `task`, routed through `router`, and returns its complete response, or throws the session's
    /// error. Cancelling the calling Swift task cancels `task`, which then completes with `URLError.cancelled`.
    /// With a `timeout`, the task fails with `URLError.timedOut` once that long passes without bytes sent or
    /// received.
    static func run(
        _ task: URLSessionTask, through router: SessionTaskRouter, timeout: Duration?,
        uploadProgress: UploadProgressHandler?
    ) async throws -> TransportResponse {
        let transfer = WholeTransfer(task: task, progress: uploadProgress)
        router.route(task, to: transfer)
        if let timeout {
            // The timer starts under the lock, so that even an immediate expiry finds it in the state.
            transfer.state.withLock { state in
                state.timeout = TransferTimeout.failing(task, after: timeout) { [weak transfer] in transfer?.finish(error: $0) }
            }
        }
        return try await task.resumeAwaiting { continuation in
            transfer.state.withLock { $0.response.wait(with: continuation) }
        }
    }

    func task(_ task: URLSessionDataTask, receivedResponse response: URLResponse) {
        // The head is progress: a body that never follows times out one timeout after it.
        state.withLock { $0.response.isSettled ? nil : $0.timeout }?.noteHead()
    }

    func task(_ task: URLSessionDataTask, received data: Data) {
        let timeout = state.withLock { state -> TransferTimeout? in
            guard !state.response.isSettled else { return nil }
            state.body.append(data)
            return state.timeout
        }
        timeout?.noteProgress()
    }

    func task(_ task: URLSessionTask, sentBodyBytes totalBytesSent: Int64, of totalBytesExpected: Int64) {
        // A settled transfer reports nothing more: its caller may already have its outcome.
        guard let timeout = state.withLock({ $0.response.isSettled ? nil : .some($0.timeout) }) else { return }
        timeout?.noteProgress()
        progress?(UploadProgress(bytesSent: totalBytesSent, totalBytes: totalBytesExpected))
    }

    func task(_ task: URLSessionTask, completedWith error: (any Error)?) {
        finish(error: error)
    }

    /// Settles the transfer with `error` (`nil`: it completed): resumes whoever waits for it, or keeps the
    /// outcome for them. Only the first call counts.
    private func finish(error: (any Error)?) {
        let ended = state.withLock { state -> (TransferTimeout?, AwaitedOutcome<TransportResponse>.Resumption?)? in
            guard !state.response.isSettled else { return nil }
            let resumption = state.response.settle(Self.outcome(of: task, body: state.body, error: error))
            state.body = Data()
            return (state.timeout, resumption)
        }
        guard let (timeout, resumption) = ended else { return }
        timeout?.cancel()
        resumption?.resume()
    }

    private static func outcome(
        of task: URLSessionTask, body: Data, error: (any Error)?
    )
        -> Result<TransportResponse, any Error>
    {
        if let error {
            return .failure(error)
        }
        guard let response = task.response as? HTTPURLResponse else {
            return .failure(URLError(.badServerResponse))
        }
        return .success(
            TransportResponse(
                statusCode: response.statusCode, headers: ResponseHeaders(of: response),
                body: body, url: response.url))
    }
}
