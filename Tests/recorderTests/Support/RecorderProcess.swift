import Foundation
import ServiceReplayShared
import ServiceReplayTestSupport

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

/// Whether this process (and so the `recorder` built with it) runs under ThreadSanitizer, whose runtime dies
/// with SIGBUS under a file-size limit, so that the tests needing one cannot run.
let isUnderThreadSanitizer: Bool = {
    guard let handle = dlopen(nil, RTLD_NOW) else { return false }
    defer { dlclose(handle) }
    return dlsym(handle, "__tsan_init") != nil
}()

/// Resource limits for a `recorder` process, set by the shell that starts it, to show what the process does
/// when its own resources run out.
struct ProcessLimits: Sendable {
    /// The largest file it may write, in the shell's `ulimit -f` blocks (512 or 1024 bytes); a write beyond it
    /// fails with EFBIG as a write to a full disk fails with ENOSPC (SIGXFSZ is ignored so that it does).
    var fileBlocks: Int?
    /// The most descriptors it may have open (`ulimit -n`).
    var openFiles: Int?
}

/// Starts a `recorder` process for `arguments` in `directory` (default: this process's), with its standard
/// output and error on pipes and an empty standard input; through `/bin/sh` when `limits` are given.
func startRecorder(_ arguments: [String], in directory: URL?, limits: ProcessLimits? = nil) throws -> (process: ChildProcess, output: Pipe, errors: Pipe) {
    DescriptorLimit.raise()
    let recorder = productsFolder().appendingPathComponent("recorder")
    let output = Pipe(), errors = Pipe()
    guard let limits else {
        return (try ChildProcess(recorder, arguments, in: directory, output: output, errors: errors), output, errors)
    }
    var script = "trap '' XFSZ"
    if let blocks = limits.fileBlocks { script += "; ulimit -f \(blocks)" }
    if let files = limits.openFiles { script += "; ulimit -n \(files)" }
    let shell = try ChildProcess(
        URL(fileURLWithPath: "/bin/sh"), ["-c", script + "; exec \"$0\" \"$@\"", recorder.path] + arguments,
        in: directory, output: output, errors: errors)
    return (shell, output, errors)
}

/// How long one run may take before it is killed, so that a hung binary fails the test instead of the suite;
/// generous, because under ThreadSanitizer on a loaded machine a run takes seconds.
let recorderRunLimit: TimeInterval = 300

/// Runs the built `recorder` binary with `arguments` in `directory` (default: this process's), within `limits`, and collects
/// its exit status and output. The waiting happens on threads of its own, never on the cooperative pool that
/// the servers' asynchronous answers of tests running in parallel need. Standard error is read on one thread
/// while standard output is read on another, so a command that fills one pipe never blocks on the other.
/// Standard input is empty.
func runRecorder(_ arguments: [String], in directory: URL? = nil, limits: ProcessLimits? = nil) async throws -> RecorderRun {
    let (process, out, err) = try startRecorder(arguments, in: directory, limits: limits)
    let finished = await process.finish(output: out.fileHandleForReading, errors: err.fileHandleForReading, limit: recorderRunLimit)
    return RecorderRun(status: finished.status, stdout: finished.output, stderr: finished.errors)
}
