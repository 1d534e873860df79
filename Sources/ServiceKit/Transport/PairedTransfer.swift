import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

/// A request's transfer on the client's ``VirtualClock`` while a replay server runs on that clock: the request
/// names it in a header, the server paces its answer on the clock, and the transfer's timeout is the clock's
/// (the request's `timeoutInterval` without progress from the server), never the machine's.
struct PairedTransfer {
    let request: URLRequest
    let transfer: VirtualTransfer

    /// The paired request, or `nil` when `clock` is not a virtual clock a server runs on (the transport's own
    /// timeout then applies, on the real clock).
    init?(_ request: URLRequest, clock: any ServiceClock) {
        guard let clock = clock as? VirtualClock, clock.hasServer else { return nil }
        transfer = clock.beginTransfer(limit: request.timeoutInterval)
        transfer.startRealTimeBackstop(after: request.timeoutInterval)
        var paired = request
        paired.setValue(transfer.headerValue, forHTTPHeaderField: VirtualClock.transferHeader)
        self.request = paired
    }

    /// Whether `request` is paired: the transport then leaves its timeout to the clock (and to the transfer's
    /// backstop, for a server not on the clock).
    static func isPaired(_ request: URLRequest) -> Bool {
        request.value(forHTTPHeaderField: VirtualClock.transferHeader) != nil
    }
}

extension VirtualTransfer {
    /// `work`'s result; when the transfer times out first, `URLError(.timedOut)` is thrown at once and `work` is
    /// cancelled (a transport slow to stop keeps the caller waiting no longer). Cancelling the calling task
    /// cancels `work`.
    func run<Result: Sendable>(_ work: @escaping @Sendable () async throws -> Result) async throws -> Result {
        let task = Task { try await work() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                // The first of the answer and the timeout resumes the caller; the other finds it done.
                let pending = Lock<CheckedContinuation<Result, any Error>?>(continuation)
                onTimeout {
                    pending.withLock { $0.take() }?.resume(throwing: URLError(.timedOut))
                    task.cancel()
                }
                Task {
                    let result = await task.result
                    pending.withLock { $0.take() }?.resume(with: result)
                }
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// `body` as it arrives, each chunk counted as read for the clock; when the transfer times out, the
    /// chunks already here are followed by `URLError(.timedOut)` and the transfer's body is dropped (which
    /// stops it). The transfer ends with the body.
    func watching(_ body: AsyncThrowingStream<Data, any Error>) -> AsyncThrowingStream<Data, any Error> {
        let (watched, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let pump = Task {
            do {
                for try await chunk in body {
                    continuation.yield(chunk)
                    received(chunk.count)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
            end()
        }
        onTimeout {
            continuation.finish(throwing: URLError(.timedOut))
            pump.cancel()
        }
        continuation.onTermination = { _ in pump.cancel() }
        return watched
    }
}
