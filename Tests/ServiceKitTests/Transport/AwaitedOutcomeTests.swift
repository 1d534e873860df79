import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import ServiceKit
import Testing

/// The hand-over between a transfer and its caller, whichever comes first; the orders a real transfer only
/// reaches in a race (a timeout or a cancellation before the caller waits) are set up here one by one.
@Suite struct AwaitedOutcomeTests {
    private struct NothingKept: Error {}

    @Test func anOutcomeBeforeTheWait_isKeptForIt_andTheFirstOneWins() async throws {
        var outcome = AwaitedOutcome<Int>()
        #expect(outcome.settle(.success(1)) == nil)
        #expect(outcome.isSettled)
        #expect(outcome.settle(.success(2)) == nil)
        let value = try await withCheckedThrowingContinuation { continuation in
            if let kept = outcome.wait(with: continuation) {
                continuation.resume(with: kept)
            } else {
                continuation.resume(throwing: NothingKept())
            }
        }
        #expect(value == 1)
    }

    @Test func anOutcomeAfterTheWait_resumesTheWaiter_andTheFirstOneWins() async throws {
        var outcome = AwaitedOutcome<Int>()
        #expect(!outcome.isSettled)
        let value = try await withCheckedThrowingContinuation { continuation in
            #expect(outcome.wait(with: continuation) == nil)
            let resumption = outcome.settle(.success(3))
            #expect(outcome.isSettled)
            #expect(outcome.settle(.success(4)) == nil)
            if let resumption {
                resumption.resume()
            } else {
                continuation.resume(throwing: NothingKept())
            }
        }
        #expect(value == 3)
    }

    @Test func anOutcomeThereBeforeTheTaskStarts_isReturned_andTheTaskNeverStarts() async throws {
        // A task cancelled before it started is the one that can have its outcome first: it must not be started.
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: URL(string: "http://127.0.0.1:9/")!)
        let value = try await task.resumeAwaiting { _ in .success(5) }
        #expect(value == 5)
        #expect(task.state == .suspended)
    }
}
