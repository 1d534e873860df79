import ServiceReplayShared

/// Bounds how many test servers of the test helpers run at once in the process. Swift Testing starts every
/// case of a parameterized test, and the tests of parallel suites, at once: thousands of tests that each
/// start a server before any of them is answered would run the process out of descriptors (a server, its
/// connections and its sessions hold several each). Each test holds a slot while its server runs; the
/// slots are a sixteenth of the descriptor limit (at least 4): 16 under macOS's default of 256, 64 under
/// Linux's 1,024. A test waiting for a slot holds no descriptor.
package final class ServerSlots: Sendable {
    /// The slots of this process.
    package static let shared = ServerSlots()

    private struct State {
        var inUse = 0
        /// Tests waiting for a slot, first come first served.
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Lock(State())

    /// Whether the current task holds a slot already: a helper nested in a test (or in a task it started)
    /// runs in its slot rather than waiting for one the test never gives back while it waits.
    @TaskLocal private static var held = false

    /// How many slots there are now; read at each test, since the descriptor limit may be raised meanwhile.
    private let capacity: @Sendable () -> Int

    /// Slots for `capacity()` servers at once; default ``capacity(forLimit:)`` of the process's limit.
    init(capacity: @escaping @Sendable () -> Int = { ServerSlots.capacity(forLimit: Sys.descriptorLimit) }) {
        self.capacity = capacity
    }

    /// A sixteenth of `limit` descriptors, at least 4; an unlimited process counts as 2^20 descriptors.
    static func capacity(forLimit limit: UInt64) -> Int {
        max(4, Int(min(limit, 1 << 20)) / 16)
    }

    /// Runs `body` in a slot, waiting for one first unless the current task holds one.
    package func holding<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        if Self.held { return try await body() }
        await take()
        defer { give() }
        return try await Self.$held.withValue(true, operation: body)
    }

    private func take() async {
        await withCheckedContinuation { continuation in
            let capacity = capacity()
            let granted = state.withLock { state -> Bool in
                guard state.inUse < capacity else {
                    state.waiting.append(continuation)
                    return false
                }
                state.inUse += 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    /// Hands the slot to the first waiting test, or frees it.
    private func give() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.inUse -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
