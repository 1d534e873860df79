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
///   again replaces the cassette only when they pass. When one of them fails, or its helper cannot tell
///   whether it passed, the cassette is put back as it was before the run (the earlier tests' recording dropped
///   what that test had used; a cassette the run created is removed), and no later test of the run replaces it.
package final class CassetteTurns: Sendable {
    /// What a cassette re-recorded under `all` was before this process first replaced it.
    package enum BeforeTheRun: Equatable, Sendable {
        /// No test of this process replaced it: it is as it was.
        case untouched
        /// It held these bytes.
        case held(Data)
        /// It did not exist: a test of this process recorded it first.
        case absent
    }

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
        /// Under `all`, what each replaced file was before this process first replaced it, so that a later
        /// failing test sharing it can put it back.
        var originals: [String: BeforeTheRun] = [:]
        /// Files a test failed on (or could not tell) under `all`: no later test of this process replaces them.
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
            if state.replaced.insert(key).inserted { state.originals[key] = original.map(BeforeTheRun.held) ?? .absent }
        }
    }

    /// Notes that a test re-recording `file` failed, or could not tell whether it passed, and returns what `file`
    /// was before this process first replaced it.
    func noteFailed(_ file: URL) -> BeforeTheRun {
        let key = file.standardizedFileURL.path
        return state.withLock { state in
            state.failed.insert(key)
            return state.originals[key] ?? .untouched
        }
    }

    /// Whether a test re-recording `file` failed, or could not tell whether it passed, in this process.
    package func hasFailed(_ file: URL) -> Bool {
        state.withLock { $0.failed.contains(file.standardizedFileURL.path) }
    }
}
