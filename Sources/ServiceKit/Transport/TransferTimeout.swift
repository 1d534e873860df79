import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

/// ServiceKit's own timeout for one transfer: it fires once `limit` has passed without progress, never
/// sooner as `ContinuousClock` measures it, to the millisecond on every platform.
///
/// URLSession's timeout cannot serve: FoundationNetworking turns `URLRequest.timeoutInterval` into whole
/// seconds, so 0.5 s fails at once and 1.5 s after 1 s. ``URLSessionTransport`` keeps the deadline here and
/// gives URLSession a looser one.
///
/// Progress is what the owner reports with ``noteProgress()`` (bytes sent or received) and ``noteHead()`` (the
/// response head, which the session's delegate hears of): a transfer that stalls after its head times out
/// `limit` after the head. Should a head come unreported, `hasHead` is asked when the deadline comes, and a
/// head first seen then counts as progress at that moment, which errs towards waiting longer, by at most one
/// more `limit`, never shorter.
final class TransferTimeout: @unchecked Sendable {
    // @unchecked: the timer is a Dispatch source, safe to schedule and cancel from any thread; the rest is
    // behind `state`.
    struct State {
        var lastProgress: ContinuousClock.Instant
        var sawHead = false
        var isOver = false

        /// The check at a deadline, at `now`, `head` telling whether the response head has arrived: the time
        /// left before the transfer times out (over when zero or less), `nil` when it was over already. A head
        /// not noted before counts as progress now.
        mutating func remaining(at now: ContinuousClock.Instant, head: Bool, limit: Duration) -> Duration? {
            guard !isOver else { return nil }
            if head, !sawHead {
                sawHead = true
                lastProgress = now
            }
            let remaining = lastProgress + limit - now
            if remaining <= .zero { isOver = true }
            return remaining
        }
    }

    private let limit: Duration
    private let state: Lock<State>
    private let timer: any DispatchSourceTimer

    /// Starts counting now; `onExpiry` is called once, on a Dispatch queue, unless ``cancel()`` comes first.
    init(limit: Duration, hasHead: @escaping @Sendable () -> Bool, onExpiry: @escaping @Sendable () -> Void) {
        self.limit = limit
        state = Lock(State(lastProgress: .now))
        timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { [weak self] in
            self?.check(hasHead: hasHead, onExpiry: onExpiry)
        }
        Self.schedule(timer, after: limit)
        timer.activate()
    }

    deinit {
        timer.cancel()
    }

    /// Restarts the wait: bytes moved.
    func noteProgress() {
        state.withLock { $0.lastProgress = .now }
    }

    /// Restarts the wait once, for the response head: the check at the deadline then finds it already counted.
    func noteHead() {
        state.withLock { state in
            state.sawHead = true
            state.lastProgress = .now
        }
    }

    /// Stops the timer for good (the transfer ended); calling it again does nothing.
    func cancel() {
        state.withLock { $0.isOver = true }
        timer.cancel()
    }

    /// At the deadline: fires when no progress came within `limit`, or waits for the remainder.
    private func check(hasHead: @Sendable () -> Bool, onExpiry: @Sendable () -> Void) {
        let head = hasHead()
        let now = ContinuousClock.now
        let remaining = state.withLock { $0.remaining(at: now, head: head, limit: limit) }
        guard let remaining else { return }
        if remaining > .zero {
            Self.schedule(timer, after: remaining)
            return
        }
        timer.cancel()
        onExpiry()
    }

    private static func schedule(_ timer: any DispatchSourceTimer, after delay: Duration) {
        let (seconds, attoseconds) = delay.components
        // Rounded up to whole microseconds so that the timer never fires before the deadline it was set for.
        let microseconds = min(seconds, 1 << 32) * 1_000_000 + (attoseconds + 999_999_999_999) / 1_000_000_000_000
        timer.schedule(deadline: .now() + .microseconds(Int(clamping: max(0, microseconds))), leeway: .milliseconds(1))
    }
}

extension TransferTimeout {
    /// A timer that fails `task` as timed out after `limit` without progress: `settle` decides its outcome
    /// at once, then the task is cancelled (its own completion, coming later, finds it settled).
    static func failing(
        _ task: URLSessionTask, after limit: Duration,
        settle: @escaping @Sendable (_ error: (any Error)?) -> Void
    ) -> TransferTimeout {
        TransferTimeout(
            limit: limit, hasHead: { task.response != nil },
            onExpiry: {
                settle(URLError(.timedOut))
                task.cancel()
            })
    }
}
