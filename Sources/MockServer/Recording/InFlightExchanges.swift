import ServiceReplayShared

/// Counts the exchanges waiting on the upstream, so that stopping can let them finish (and be saved) first.
final class InFlightExchanges: Sendable {
    private struct State {
        var count = 0
        var draining = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Lock(State())

    /// Counts one more exchange and returns `true`, or returns `false` once ``drain()`` has begun.
    func begin() -> Bool {
        state.withLock { state in
            guard !state.draining else { return false }
            state.count += 1
            return true
        }
    }

    /// Counts one exchange as finished.
    func end() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count -= 1
            guard state.draining, state.count == 0 else { return [] }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Refuses new exchanges from now on and returns once none is in flight. Each exchange is bounded by the
    /// upstream timeout, so this is too.
    func drain() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                state.draining = true
                if state.count == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
