import Dispatch
import Foundation
import Synchronization

/// Waits for SIGINT (Ctrl-C) or SIGTERM, for commands that run until told to stop. The default handlers
/// are replaced, so the process is not killed before the command has shut down cleanly.
enum ShutdownSignal {
    /// Suspends until the first SIGINT or SIGTERM arrives and returns its name (`SIGINT`, `SIGTERM`).
    static func wait() async -> String {
        let sources = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")].map { number, name in
            signal(number, SIG_IGN)
            return (DispatchSource.makeSignalSource(signal: number, queue: .global()), name)
        }
        let received = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            let once = ResumeOnce(continuation)
            for (source, name) in sources {
                source.setEventHandler { once.resume(name) }
                source.resume()
            }
        }
        for (source, _) in sources { source.cancel() }
        return received
    }
}

/// Resumes a continuation once, however many signals arrive.
private final class ResumeOnce: Sendable {
    private let continuation: Mutex<CheckedContinuation<String, Never>?>

    init(_ continuation: CheckedContinuation<String, Never>) {
        self.continuation = Mutex(continuation)
    }

    func resume(_ value: String) {
        continuation.withLock { pending in
            pending?.resume(returning: value)
            pending = nil
        }
    }
}
