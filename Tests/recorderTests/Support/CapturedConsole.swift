@testable import recorder
import ServiceReplayShared

/// A console that keeps what commands print, for in-process runs.
final class CapturedConsole: Sendable {
    private let output = Lock("")
    private let errors = Lock("")

    var console: Console {
        Console(
            writeOutput: { text in self.output.withLock { $0 += text } },
            writeError: { text in self.errors.withLock { $0 += text } })
    }

    var stdout: String { output.withLock { $0 } }
    var stderr: String { errors.withLock { $0 } }
}
