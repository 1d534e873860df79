import Dispatch
import Foundation
import ServiceReplayShared

/// Waits for SIGINT (Ctrl-C) or SIGTERM, for commands that run until told to stop. The default handlers
/// are replaced, so the process is not killed before the command has shut down cleanly.
enum ShutdownSignal {
    /// Catches SIGINT and SIGTERM from the moment it is created, so that a signal arriving before ``wait()``
    /// (say, right after a command printed its address) still stops the command cleanly instead of killing it.
    final class Catcher: Sendable {
        private let delivery = Delivery()
        /// Written once in `init`; dispatch sources may be cancelled from any thread.
        nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

        init() {
            var sources: [any DispatchSourceSignal] = []
            for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [delivery] in delivery.deliver(name) }
                source.resume()
                sources.append(source)
            }
            self.sources = sources
        }

        deinit {
            for source in sources { source.cancel() }
        }

        /// Suspends until the first SIGINT or SIGTERM since creation (returning at once when one already
        /// arrived) and returns its name.
        func wait() async -> String {
            await delivery.wait()
        }
    }

    /// The first signal's name, handed to whoever waits for it, whichever comes first.
    private final class Delivery: Sendable {
        private struct State {
            var received: String?
            var continuation: CheckedContinuation<String, Never>?
        }

        private let state = Lock(State())

        func wait() async -> String {
            await withCheckedContinuation { continuation in
                let received = state.withLock { state -> String? in
                    if state.received == nil { state.continuation = continuation }
                    return state.received
                }
                if let received { continuation.resume(returning: received) }
            }
        }

        func deliver(_ name: String) {
            let continuation = state.withLock { state -> CheckedContinuation<String, Never>? in
                guard state.received == nil else { return nil }
                state.received = name
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume(returning: name)
        }
    }
}
