// Only where a test can start a process: Foundation has no Process on iOS, tvOS or watchOS.
#if os(macOS) || os(Linux)
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The example's app (`profiles-app`) running as a child process, driven as a UI test drives an app: it is
/// launched with an environment of the test's choosing, given one command a line on its standard input, and
/// each of its answers is awaited, for at most ``answerLimit`` seconds, before the next command is sent.
final class AppProcess: @unchecked Sendable {
    // @unchecked: `lines` and `ended` are guarded by `lock`; the rest is set in `init` and never changed.

    /// How long one answer may take: long enough for a loaded machine, short enough that a hung app fails its
    /// test instead of the run.
    static let answerLimit: TimeInterval = 60

    /// Why the app did not answer.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let lock = NSLock()
    /// Complete lines printed and not yet taken.
    private var lines: [String] = []
    /// Whether the output ended (the app closed it, or exited).
    private var ended = false
    /// Signalled once for each line, and once when the output ends.
    private let printed = DispatchSemaphore(value: 0)
    private let errorText = LockedData()
    private let errorsRead = DispatchSemaphore(value: 0)

    /// The built app: beside the test bundle on macOS, in the same folder as the tests on Linux.
    static var executable: URL {
        let bundle = Bundle(for: AppProcess.self).bundleURL
        let folder = bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
        return folder.appendingPathComponent("profiles-app")
    }

    /// A write to the input of an app that ended fails with EPIPE instead of ending the test process.
    private static let pipeSignalIgnored: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Launches the app with exactly `environment` (nothing of the test process's own).
    init(environment: [String: String]) throws {
        _ = Self.pipeSignalIgnored
        process.executableURL = Self.executable
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Each pipe is read to its end on a thread of its own, never on the cooperative pool the servers need.
        let outputHandle = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = outputHandle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    lock.withLock { lines.append(line) }
                    printed.signal()
                }
            }
            lock.withLock { ended = true }
            printed.signal()
        }
        let errorHandle = errors.fileHandleForReading
        Thread.detachNewThread { [errorText, errorsRead] in
            errorText.set(errorHandle.readDataToEndOfFile())
            errorsRead.signal()
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// The next line the app prints, waited for on a thread of its own for at most ``answerLimit`` seconds.
    /// - Throws: ``Failure`` when the app printed nothing in time or ended without printing it.
    func nextLine() async throws -> String {
        let line: String? = await withCheckedContinuation { continuation in
            Thread.detachNewThread { [self] in
                let deadline = DispatchTime.now() + Self.answerLimit
                // One signal per line, plus one at the end: bounded by the lines printed.
                while true {
                    if let line = lock.withLock({ lines.isEmpty ? nil : lines.removeFirst() }) {
                        return continuation.resume(returning: line)
                    }
                    if lock.withLock({ ended }) || printed.wait(timeout: deadline) == .timedOut {
                        // A line may have come with the end.
                        return continuation.resume(returning: lock.withLock { lines.isEmpty ? nil : lines.removeFirst() })
                    }
                }
            }
        }
        guard let line else {
            throw Failure(description: "the app printed no line within \(Int(Self.answerLimit)) s; it wrote to standard error: \(await finish())")
        }
        return line
    }

    /// Sends `command` and returns the one line the app answers.
    func ask(_ command: String) async throws -> String {
        try input.fileHandleForWriting.write(contentsOf: Data((command + "\n").utf8))
        return try await nextLine()
    }

    /// Closes the app's input, which ends it, and returns what it wrote to standard error; it is killed if it
    /// has not ended within ``answerLimit`` seconds.
    @discardableResult
    func finish() async -> String {
        try? input.fileHandleForWriting.close()
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread { [self] in
                if errorsRead.wait(timeout: .now() + Self.answerLimit) == .timedOut {
                    process.terminate()
                    _ = errorsRead.wait(timeout: .now() + Self.answerLimit)
                }
                process.waitUntilExit()
                // Already read: a later call returns at once.
                errorsRead.signal()
                continuation.resume(returning: String(decoding: errorText.value, as: UTF8.self))
            }
        }
    }

    /// The app's exit status, once ``finish()`` returned.
    var exitStatus: Int32 { process.terminationStatus }
}

/// Bytes written by one thread and read by another.
final class LockedData: @unchecked Sendable {
    // @unchecked: `data` is only touched under `lock`.
    private let lock = NSLock()
    private var data = Data()
    func set(_ data: Data) { lock.withLock { self.data = data } }
    var value: Data { lock.withLock { data } }
}
#endif
