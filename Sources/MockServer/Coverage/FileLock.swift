import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive advisory lock (`flock`) on `FILE.lock`, held by one process at a time: how servers of several
/// test processes take turns on the coverage files.
enum FileLock {
    /// Runs `body` holding the lock beside `file`, creating the lock file (and its folder) when missing.
    static func withLock<Result>(beside file: URL, _ body: () throws -> Result) throws -> Result {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let path = file.path + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else {
            throw MockServerError(code: .fileSystem, file: path, reason: "cannot open this lock file (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw MockServerError(code: .fileSystem, file: path, reason: "cannot lock this file (\(String(cString: strerror(errno))))")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
