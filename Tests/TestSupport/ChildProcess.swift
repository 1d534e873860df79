// Only where the tests run: posix_spawn's chdir action does not exist on iOS, tvOS or watchOS.
#if os(macOS) || os(Linux)
import Foundation
import ServiceReplayShared
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process for tests (the built `recorder`, curl), started with `posix_spawn`.
///
/// Foundation's `Process.run()` on Linux (toolchain 6.3.1) reads past the end of a directory entry while it
/// lists `/proc/self/fd`, and crashes when a test process holds over a thousand descriptors, as this suite
/// does while its servers run in parallel (swift-corelibs-foundation #5472). Here the child closes every
/// descriptor above standard error itself (`closefrom`), so nothing is listed. Standard input is
/// `/dev/null`; standard output and error go to the given pipes, or to `/dev/null`.
package final class ChildProcess: @unchecked Sendable {
    /// The child's process ID.
    package let processIdentifier: pid_t
    private let state = NSLock()
    private var exitStatus: Int32?

    /// Starts `executable` with `arguments` in `directory` (default: this process's) and `environment`
    /// (default: this process's); throws a `ChildProcess.Failure` naming the executable when it cannot be started.
    package init(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil,
        output: Pipe? = nil, errors: Pipe? = nil, environment: [String: String]? = nil
    ) throws {
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #endif
        // The environment from Foundation on every platform: Darwin exports neither `environ` nor
        // `_NSGetEnviron()` to Swift.
        let environment = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { environment.forEach { free($0) } }
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (pipe, target) in [(output, Int32(1)), (errors, Int32(2))] {
            if let pipe {
                posix_spawn_file_actions_adddup2(&actions, pipe.fileHandleForWriting.fileDescriptor, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            }
        }
        if let directory { _ = addChangeDirectory(&actions, directory.path) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        #if canImport(Glibc)
        _ = addCloseFrom(&actions, 3)
        #else
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        #endif
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable.path, &actions, &attributes, argv, environment)
        guard status == 0 else {
            throw Failure(description: "cannot start \(executable.path): \(String(cString: strerror(status)))")
        }
        processIdentifier = pid
        // The child has its own copies; the parent's write ends must close so that readers see the end.
        try output?.fileHandleForWriting.close()
        try errors?.fileHandleForWriting.close()
    }

    deinit {
        if isRunning { terminate() }
    }

    /// Whether the child has not exited yet; reaps it once it has.
    package var isRunning: Bool { reap() == nil }

    /// Blocks the calling thread until the child exits; other threads may ask ``isRunning`` meanwhile.
    package func waitUntilExit() {
        // Waits without reaping and without the lock, then reaps under it.
        var info = siginfo_t()
        while waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        _ = reap()
    }

    /// The exit status, or the number of the signal that ended the child, as `Process` reports it.
    /// Only meaningful once ``isRunning`` is false.
    package var terminationStatus: Int32 { reap() ?? -1 }

    /// Sends SIGTERM.
    package func terminate() {
        kill(processIdentifier, SIGTERM)
    }

    /// The exit status once the child has exited (reaping it the first time), nil while it runs.
    private func reap() -> Int32? {
        state.lock()
        defer { state.unlock() }
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        var result: pid_t
        repeat {
            result = waitpid(processIdentifier, &status, WNOHANG)
        } while result == -1 && errno == EINTR
        guard result == processIdentifier else { return nil }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as macros.
        let signal = status & 0x7f
        exitStatus = signal == 0 ? (status >> 8) & 0xff : signal
        return exitStatus
    }

    /// Why a child could not be started.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }
}

#if canImport(Glibc)
// glibc 2.29 and 2.34 have these, but Swift's Glibc module does not import them, so they are looked up by name.
private typealias ChangeDirectoryAction = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
private typealias CloseFromAction = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

private let addChangeDirectory = unsafeBitCast(
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")!,
    to: ChangeDirectoryAction.self)
private let addCloseFrom = unsafeBitCast(
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")!,
    to: CloseFromAction.self)
#else
private func addChangeDirectory(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t?>, _ path: UnsafePointer<CChar>) {
    posix_spawn_file_actions_addchdir_np(actions, path)
}
#endif
#endif

extension ChildProcess {
    /// What a finished process left: its exit status and everything it wrote.
    package struct Finished: Sendable {
        package let status: Int32
        package let output: String
        package let errors: String
    }

    /// Waits for the process to exit, killing it after `limit` seconds so that a hung child fails its test
    /// instead of the suite, and collects everything it writes to `output` and `errors` until then. The
    /// waiting happens on threads of its own, never on the cooperative pool that servers' answers to tests
    /// running in parallel need; the two pipes are read on two threads, so a child that fills one never
    /// blocks on the other.
    package func finish(output: FileHandle, errors: FileHandle, limit: TimeInterval) async -> Finished {
        let process = self
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: watchdog)
        defer { watchdog.cancel() }
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let errorData = Lock(Data())
                let errorRead = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    let data = errors.readDataToEndOfFile()
                    errorData.withLock { $0 = data }
                    errorRead.signal()
                }
                let outputData = output.readDataToEndOfFile()
                errorRead.wait()
                process.waitUntilExit()
                continuation.resume(
                    returning: Finished(
                        status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                        errors: String(decoding: errorData.withLock { $0 }, as: UTF8.self)))
            }
        }
    }
}
