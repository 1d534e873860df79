import Foundation
import ServiceReplayShared

/// Tests of one process that record the same cassette take turns on it, so that parallel tests sharing a
/// cassette never read it half-written, and each later test builds on what the earlier ones recorded.
///
/// - `once`: the first test to find the cassette missing records it; every other test of that cassette in
///   the process waits for its turn, then replays what the cassette holds and appends what it adds (as
///   `new-episodes` does). A cassette that was on disk before any test of the process recorded it is only
///   replayed, without waiting.
/// - `new-episodes`: one test at a time appends to the cassette.
/// - `all`: the first test re-records the cassette from scratch; once its recording has replaced the old
///   cassette, later tests of the same run replay it and append what they add, into a new recording that
///   again replaces the cassette only when they pass. When one of them fails, the cassette is put back as it
///   was before the run (the earlier tests' recording dropped what the failed test had used), and no later
///   test of the run replaces it.
package final class CassetteTurns: Sendable {
    /// The turns of this process.
    package static let shared = CassetteTurns()

    private struct State {
        /// Files a test is recording now.
        var busy: Set<String> = []
        /// Tests waiting for each busy file, first come first served.
        var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
        /// Files this process started recording under `once`.
        var claimed: Set<String> = []
        /// Files this process re-recorded and replaced under `all`.
        var replaced: Set<String> = []
        /// Under `all`, each replaced file's bytes from before this process first replaced it, so that a later
        /// failing test sharing it can put it back.
        var originals: [String: Data] = [:]
        /// Files a test failed on under `all`: no later test of this process replaces them.
        var failed: Set<String> = []
    }

    private let state = Lock(State())

    /// The turns the current task holds, so that a helper nested in a test that records the same cassette
    /// fails at once instead of waiting for a turn that test never gives back.
    @TaskLocal static var held: Set<String> = []

    /// Waits for the turn on `file` when a test in `mode` may write it, and returns the key to ``give(_:)``
    /// back; `nil` when the test only reads `file`, so it needs no turn.
    /// - Throws: ``MockServerError`` (`invalidConfiguration`) when the current task holds that turn already.
    package func take(_ file: URL, mode: RecordMode) async throws(MockServerError) -> String? {
        let key = file.standardizedFileURL.path
        let needsTurn: Bool = state.withLock { state in
            switch mode {
            case .none, .live, .drift:
                return false
            case .once:
                // On disk before this process recorded it: replayed only. Checked under the lock, so a file
                // another test has just begun writing is never taken for a finished one.
                if !state.claimed.contains(key) && FileManager.default.fileExists(atPath: key) { return false }
                state.claimed.insert(key)
                return true
            case .newEpisodes, .all:
                return true
            }
        }
        guard needsTurn else { return nil }
        guard !Self.held.contains(key) else {
            throw MockServerError(
                .invalidConfiguration,
                "this test is recording \(file.path) already, so a helper inside it cannot record the same cassette; give the inner one a cassette of its own")
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.busy.insert(key).inserted { return true }
                state.waiting[key, default: []].append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
        return key
    }

    /// Ends the turn on `key`, handing it to the next test waiting for it.
    package func give(_ key: String) {
        let next: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard var queue = state.waiting[key], !queue.isEmpty else {
                state.busy.remove(key)
                return nil
            }
            let next = queue.removeFirst()
            state.waiting[key] = queue.isEmpty ? nil : queue
            return next
        }
        next?.resume()
    }

    /// Whether a test of this process started recording `file` under `once`, so that the next test of it
    /// appends to what that test recorded.
    func wasClaimed(_ file: URL) -> Bool {
        state.withLock { $0.claimed.contains(file.standardizedFileURL.path) }
    }

    /// Whether a test of this process re-recorded `file` under `all` and replaced the old cassette.
    package func wasReplaced(_ file: URL) -> Bool {
        state.withLock { $0.replaced.contains(file.standardizedFileURL.path) }
    }

    /// Notes that a re-recording replaced `file`, which held `original` before (`nil` when it did not exist);
    /// only the first replacement's original is kept.
    func noteReplaced(_ file: URL, original: Data?) {
        let key = file.standardizedFileURL.path
        state.withLock { state in
            if state.replaced.insert(key).inserted { state.originals[key] = original }
        }
    }

    /// Notes that a test re-recording `file` failed, and returns what `file` held before this process first
    /// replaced it (`nil` when no test of this process replaced it, or it did not exist then).
    func noteFailed(_ file: URL) -> Data? {
        let key = file.standardizedFileURL.path
        return state.withLock { state in
            state.failed.insert(key)
            return state.originals[key]
        }
    }

    /// Whether a test re-recording `file` failed in this process.
    package func hasFailed(_ file: URL) -> Bool {
        state.withLock { $0.failed.contains(file.standardizedFileURL.path) }
    }
}
