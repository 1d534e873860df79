import Foundation
import ServiceKit
import ServiceKitTesting
import Testing

@Suite struct VirtualClockTests {
    @Test func sleep_recordsAndAdvancesWithoutWaiting() async throws {
        let clock = VirtualClock(now: Date(timeIntervalSince1970: 100))
        try await clock.sleep(for: 2)
        try await clock.sleep(for: 0.5)
        clock.advance(by: 10)
        #expect(clock.sleeps == [2, 0.5])
        #expect(clock.totalSlept == 2.5)
        #expect(clock.now == Date(timeIntervalSince1970: 112.5))
    }

    @Test func sleep_whenCancelled_throwsAndRecordsNothing() async {
        let clock = VirtualClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: 1)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeps.isEmpty)
    }
}

/// The clock a server and a client share: time moves only when every transfer waits on the server and the
/// client has read what the server sent.
@Suite(.timeLimit(.minutes(1))) struct SharedVirtualClockTests {
    /// A flag set from another thread.
    final class Flag: Sendable {
        private let value = ServiceReplayShared.Lock(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }

    /// Returns once a sleep is recorded on `clock` (the sleeping task has reached it); fails after 10 s.
    static func awaitSleep(on clock: VirtualClock) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while clock.sleeps.isEmpty {
            try #require(ContinuousClock.now < deadline, "the sleeping task never reached its sleep")
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    @Test func sleep_whileATransferIsUnderWay_waitsForIt_thenTimeMoves() async throws {
        // GIVEN a transfer the server has not taken up yet
        let clock = VirtualClock()
        let transfer = clock.beginTransfer(limit: nil)
        // WHEN a task sleeps 2 s meanwhile
        let slept = Flag()
        let sleeper = Task {
            try await clock.sleep(for: 2)
            slept.set()
        }
        // THEN the sleep is recorded but time stays until the transfer is over
        try await Self.awaitSleep(on: clock)
        #expect(clock.sleeps == [2])
        #expect(!slept.isSet)
        #expect(clock.elapsed == .zero)
        transfer.end()
        try await sleeper.value
        #expect(slept.isSet)
        #expect(clock.elapsed == .seconds(2))
    }

    @Test func timeout_firesOnlyOnceTheServerWaits_atItsLastProgressPlusTheLimit() throws {
        // GIVEN a transfer with a 1 s timeout, taken up by a server on the clock
        let clock = VirtualClock()
        let transfer = clock.beginTransfer(limit: 1)
        let timedOut = Flag()
        transfer.onTimeout { timedOut.set() }
        let pacing = try #require(clock.pacing(for: transfer.headerValue))
        // WHEN the server waits until 0.4 s, writes at that moment, then stalls
        let resumed = Flag()
        pacing.park(until: 400_000_000) { resumed.set() }
        #expect(resumed.isSet)
        #expect(!timedOut.isSet)
        pacing.wrote(bodyBytes: nil)
        pacing.stall()
        // THEN the timeout fires 1 s after that write, at 1.4 s
        #expect(timedOut.isSet)
        #expect(clock.elapsed == .milliseconds(1400))
    }

    @Test func bodyBytesNotYetRead_holdTime_untilTheClientReadsThem() throws {
        // GIVEN a stream that wrote 10 body bytes and then stalls, with a 1 s timeout
        let clock = VirtualClock()
        let transfer = clock.beginTransfer(limit: 1)
        let timedOut = Flag()
        transfer.onTimeout { timedOut.set() }
        let pacing = try #require(clock.pacing(for: transfer.headerValue))
        pacing.wrote(bodyBytes: 10)
        pacing.stall()
        // THEN the timeout waits for the client to read them: 9 bytes are not enough, 10 are
        #expect(!timedOut.isSet)
        transfer.received(9)
        #expect(!timedOut.isSet)
        transfer.received(1)
        #expect(timedOut.isSet)
        #expect(clock.elapsed == .seconds(1))
    }

    @Test func realTimeBackstop_timesOutATransferNoServerTookUp_withoutMovingTheClock() async {
        // GIVEN a transfer no server on the clock takes up (it went to a server not on the clock)
        let clock = VirtualClock()
        let transfer = clock.beginTransfer(limit: 0.05)
        let (fired, continuation) = AsyncStream<Void>.makeStream()
        transfer.onTimeout { continuation.finish() }
        // WHEN its real-time backstop of 50 ms passes THEN it times out, and the clock did not move
        transfer.startRealTimeBackstop(after: 0.05)
        for await _ in fired {}
        #expect(clock.elapsed == .zero)
    }

    @Test func headerOfAnotherClock_orOfAnEndedTransfer_pacesNothing() {
        let clock = VirtualClock()
        let other = VirtualClock()
        let transfer = other.beginTransfer(limit: 1)
        #expect(clock.pacing(for: transfer.headerValue) == nil)
        #expect(clock.pacing(for: "not a transfer") == nil)
        let own = clock.beginTransfer(limit: 1)
        own.end()
        #expect(clock.pacing(for: own.headerValue) == nil)
    }

    @Test func transferHeaders_nameTheirClockByANumberNoOtherClockGives() throws {
        // A web page that reaches the server must not be able to name a running test's transfer: clocks made one
        // after another are numbered neither alike nor in sequence.
        let numbers = try (0..<3).map { _ in try #require(VirtualClock().beginTransfer(limit: 1).headerValue.split(separator: ".").first.flatMap { UInt64($0) })
        }
        #expect(Set(numbers).count == 3)
        #expect(!zip(numbers, numbers.dropFirst()).contains { $1 == $0 &+ 1 }, "\(numbers)")
    }

    @Test func sleep_cancelledWhileWaiting_throwsCancellation() async throws {
        // GIVEN a sleep held back by a transfer under way
        let clock = VirtualClock()
        let transfer = clock.beginTransfer(limit: nil)
        let sleeper = Task { try await clock.sleep(for: 5) }
        try await Self.awaitSleep(on: clock)
        // WHEN its task is cancelled THEN it throws, and time did not move
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.elapsed == .zero)
        transfer.end()
    }
}
