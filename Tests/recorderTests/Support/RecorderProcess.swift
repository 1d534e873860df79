import Foundation
import Locking

/// What a run of the built `recorder` binary did.
struct RecorderRun: Sendable {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// The build folder holding the test products and the `recorder` binary. On Linux the bundle URL is
/// that folder; on macOS it is the `.xctest` bundle inside it.
func productsFolder() -> URL {
    let bundle = Bundle(for: Marker.self).bundleURL
    return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
}

private final class Marker {}

/// A `recorder` process for `arguments` in `directory` (default: this process's), not yet started, with its
/// standard output and error on pipes and an empty standard input.
func recorderProcess(_ arguments: [String], in directory: URL?) -> (process: Process, output: Pipe, errors: Pipe) {
    let process = Process()
    process.executableURL = productsFolder().appendingPathComponent("recorder")
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    return (process, output, errors)
}

/// How long one run may take before it is killed, so that a hung binary fails the test instead of the suite.
let recorderRunLimit: TimeInterval = 60

/// Runs the built `recorder` binary with `arguments` in `directory` (default: this process's) and collects
/// its exit status and output. The waiting happens on threads of its own, never on the cooperative pool that
/// the servers' asynchronous answers of tests running in parallel need. Standard error is read on one thread
/// while standard output is read on another, so a command that fills one pipe never blocks on the other.
/// Standard input is empty.
func runRecorder(_ arguments: [String], in directory: URL? = nil) async throws -> RecorderRun {
    let (process, out, err) = recorderProcess(arguments, in: directory)
    try process.run()
    let errorHandle = err.fileHandleForReading
    let outputHandle = out.fileHandleForReading
    let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + recorderRunLimit, execute: watchdog)
    defer { watchdog.cancel() }
    return await withCheckedContinuation { continuation in
        Thread.detachNewThread {
            let errorData = Lock(Data())
            let errorRead = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                let data = errorHandle.readDataToEndOfFile()
                errorData.withLock { $0 = data }
                errorRead.signal()
            }
            let outputData = outputHandle.readDataToEndOfFile()
            errorRead.wait()
            process.waitUntilExit()
            continuation.resume(returning: RecorderRun(status: process.terminationStatus,
                                                       stdout: String(decoding: outputData, as: UTF8.self),
                                                       stderr: String(decoding: errorData.withLock { $0 }, as: UTF8.self)))
        }
    }
}
