import Foundation
import ServiceReplayShared
import ServiceReplayTestSupport

/// A `recorder` process that keeps running (replay, capture): its output is collected as it arrives, so a
/// test can wait for a line (such as the address it serves on), talk to it, then stop it with a signal.
/// Every wait is bounded; a process still running when the value is released is killed.
final class RunningRecorder: Sendable {
    private let process: ChildProcess
    private let streams = Lock(Streams())

    private struct Streams {
        var output = Data()
        var errors = Data()
        /// How many of the two pipes reached end-of-file: every byte the process wrote has been collected.
        var ended = 0
    }

    /// Starts `recorder ARGUMENTS` in `directory`, within `limits`.
    init(_ arguments: [String], in directory: URL? = nil, limits: ProcessLimits? = nil) throws {
        let (process, out, err) = try startRecorder(arguments, in: directory, limits: limits)
        self.process = process
        for (pipe, isOutput) in [(out, true), (err, false)] {
            let handle = pipe.fileHandleForReading
            // The readers hold only the buffers, so that a test that fails early releases this value, and deinit
            // ends the process.
            let streams = streams
            Thread.detachNewThread { Self.collect(handle, isOutput: isOutput, into: streams) }
        }
    }

    private static func collect(_ handle: FileHandle, isOutput: Bool, into streams: Lock<Streams>) {
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty {
                streams.withLock { $0.ended += 1 }
                return
            }
            streams.withLock { isOutput ? $0.output.append(chunk) : $0.errors.append(chunk) }
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Standard output so far.
    var stdout: String { String(decoding: streams.withLock { $0.output }, as: UTF8.self) }
    /// Standard error so far.
    var stderr: String { String(decoding: streams.withLock { $0.errors }, as: UTF8.self) }

    /// The first line of standard output (or error) containing `text`, waiting up to `timeout` for it to appear.
    /// The bound only stops a hung process: under ThreadSanitizer on a loaded machine, a start takes seconds.
    func line(containing text: String, onStandardError: Bool = false, timeout: Duration = hangLimit) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            // Looked at once more after the deadline or the exit, so that output from the last wait counts.
            let isLast = ContinuousClock.now >= deadline || !process.isRunning
            let output = onStandardError ? stderr : stdout
            if let line = output.split(separator: "\n").first(where: { $0.contains(text) }) { return String(line) }
            if isLast { break }
            try await Task.sleep(for: .milliseconds(20))  // polling the pipe buffer, not waiting for readiness
        }
        throw RunFailure(
            description:
                "no output line containing \(text.debugDescription) within \(timeout); stdout: \(stdout.debugDescription), stderr: \(stderr.debugDescription)")
    }

    /// The `http://127.0.0.1:PORT` address the command printed on a line containing `marker`.
    func address(after marker: String) async throws -> URL {
        let line = try await line(containing: marker)
        guard let range = line.range(of: #"http://127\.0\.0\.1:\d+"#, options: .regularExpression) else {
            throw RunFailure(description: "no address in \(line.debugDescription)")
        }
        return URL(string: String(line[range]))!
    }

    /// Sends `signal` (default SIGINT, as Ctrl-C does; none when `nil`) and waits up to `timeout` for the
    /// process to exit.
    func stop(with signal: Int32? = SIGINT, timeout: Duration = hangLimit) async throws -> RecorderRun {
        if let signal { kill(process.processIdentifier, signal) }
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                process.terminate()
                throw RunFailure(
                    description: "recorder did not exit within \(timeout) of signal \(signal.map(String.init) ?? "none"); stderr: \(stderr.debugDescription)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        // Wait for end-of-file on both pipes (bounded), so that what the process wrote last is collected.
        while streams.withLock({ $0.ended < 2 }) {
            guard ContinuousClock.now < deadline else {
                throw RunFailure(
                    description:
                        "recorder's output did not end within \(timeout) of signal \(signal.map(String.init) ?? "none"); stdout: \(self.stdout.debugDescription)"
                )
            }
            try await Task.sleep(for: .milliseconds(10))  // polling the readers' state, not waiting for readiness
        }
        return RecorderRun(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    /// How long a wait for the process lasts before the test fails instead of hanging.
    static let hangLimit: Duration = .seconds(120)

    struct RunFailure: Error, CustomStringConvertible {
        let description: String
    }
}
