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
