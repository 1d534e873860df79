import Foundation
import ServiceReplayShared
import ServiceKit

/// A ``ServiceKit/ServiceClock`` for tests: sleeping returns at once, advances ``now`` by the requested time and
/// records it, so a test asserts what the client waited without waiting (`clock.sleeps == [2]`).
public final class VirtualClock: ServiceClock {
    private struct State {
        var now: Date
        var sleeps: [TimeInterval] = []
    }

    private let state: Lock<State>

    /// A clock reading `now` (1 January 2001 by default) that has slept nothing yet.
    public init(now: Date = Date(timeIntervalSinceReferenceDate: 0)) {
        state = Lock(State(now: now))
    }

    /// The current virtual date: the start plus every sleep and ``advance(by:)``.
    public var now: Date { state.withLock { $0.now } }

    /// Every requested sleep in seconds, in order.
    public var sleeps: [TimeInterval] { state.withLock { $0.sleeps } }

    /// The sum of ``sleeps``.
    public var totalSlept: TimeInterval { sleeps.reduce(0, +) }

    /// Records the sleep and advances ``now`` without suspending. Throws `CancellationError`, recording
    /// nothing, when the calling task is already cancelled, like a real sleep would.
    public func sleep(for seconds: TimeInterval) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(seconds)
            state.now += seconds
        }
    }

    /// Moves ``now`` forward by `seconds` without recording a sleep (time passing elsewhere).
    public func advance(by seconds: TimeInterval) {
        state.withLock { $0.now += seconds }
    }
}
