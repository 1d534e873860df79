import Foundation
@testable import ServiceKit
import Testing

/// The check `TransferTimeout` makes at each deadline, on instants of the test's choosing: no timer, no wall clock.
@Suite struct TransferTimeoutTests {
    let start = ContinuousClock.now

    @Test func headNotedWhenItCame_countsFromThen_notFromTheCheck() {
        // GIVEN a 1 s limit and a head noted 0.2 s in (the session's delegate reports it)
        var state = TransferTimeout.State(lastProgress: start)
        state.sawHead = true
        state.lastProgress = start + .milliseconds(200)
        // WHEN the deadline's check comes 1 s in, THEN 0.2 s are left, and at 1.2 s the transfer is over
        #expect(state.remaining(at: start + .seconds(1), head: true, limit: .seconds(1)) == .milliseconds(200))
        #expect(state.remaining(at: start + .milliseconds(1200), head: true, limit: .seconds(1)) == .zero)
        #expect(state.isOver)
        #expect(state.remaining(at: start + .seconds(5), head: true, limit: .seconds(1)) == nil)
    }

    @Test func headFirstSeenAtTheCheck_countsAsProgressThen_waitingOneMoreLimit() {
        // GIVEN a head nobody reported before the check
        var state = TransferTimeout.State(lastProgress: start)
        // WHEN the check 1 s in sees it, THEN it counts from then: a full limit more, never shorter
        #expect(state.remaining(at: start + .seconds(1), head: true, limit: .seconds(1)) == .seconds(1))
        #expect(state.sawHead)
        #expect(!state.isOver)
    }

    @Test func noHeadNoProgress_isOverAtTheLimit() {
        var state = TransferTimeout.State(lastProgress: start)
        #expect(state.remaining(at: start + .seconds(1), head: false, limit: .seconds(1)) == .zero)
        #expect(state.isOver)
    }
}
