import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place that talks to the file system with POSIX calls to write a file atomically.
enum AtomicFile {
    /// Writes `data` to a temporary file next to `url`, flushes it, then renames it into place (replacing) or
    /// hard-links it into place (never replacing: `link` fails atomically when the name exists).
    static func write(_ data: Data, to url: URL, overwrite: Bool) throws(MockServerError) {
        let display = url.relativePath
        let destination = url.path
        let folder = url.deletingLastPathComponent().path
        func failure(_ what: String, _ code: Int32 = errno) -> MockServerError {
            MockServerError(code: .fileSystem, file: display, reason: "\(what) (\(String(cString: strerror(code))))")
        }
        if !overwrite, FileManager.default.fileExists(atPath: destination) {
            throw existing(display)
        }
        let temporary = folder + "/." + url.lastPathComponent + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            throw failure("cannot create a temporary file in \(url.deletingLastPathComponent().relativePath)")
        }
        var removeTemporary = true
        defer { if removeTemporary { unlink(temporary) } }
        let written = data.withUnsafeBytes { Sys.writeAll(descriptor, $0) }
        if written != 0 {
            close(descriptor)
            throw failure("cannot write the cassette", written)
        }
        let flushed = flushToDisk(descriptor)
        guard flushed == 0 else {
            close(descriptor)
            throw failure("cannot flush the cassette to disk", flushed)
        }
        close(descriptor)
        if overwrite {
            guard rename(temporary, destination) == 0 else { throw failure("cannot move the cassette into place") }
            removeTemporary = false
        } else {
            if link(temporary, destination) != 0 {
                let code = errno
                if code == EEXIST { throw existing(display) }
                // Some file systems have no hard links; there, check-then-rename is the best available.
                guard code == EPERM || code == ENOTSUP || code == EOPNOTSUPP || code == EXDEV || code == EMLINK else {
                    throw failure("cannot move the cassette into place", code)
                }
                if FileManager.default.fileExists(atPath: destination) { throw existing(display) }
                guard rename(temporary, destination) == 0 else { throw failure("cannot move the cassette into place") }
                removeTemporary = false
            }
        }
        // Flushing the folder makes the new name itself survive a power cut.
        let folderDescriptor = open(folder, O_RDONLY)
        if folderDescriptor >= 0 {
            _ = flushToDisk(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// Renames `source` over `destination` in one step (`rename(2)`), so readers see the old file or the new
    /// one, never neither; then flushes the folder so that the new name survives a power cut.
    static func move(_ source: URL, over destination: URL) throws(MockServerError) {
        guard rename(source.path, destination.path) == 0 else {
            let code = errno
            throw MockServerError(
                code: .fileSystem, file: destination.relativePath,
                reason: "cannot move \(source.lastPathComponent) into place (\(String(cString: strerror(code))))")
        }
        let folderDescriptor = open(destination.deletingLastPathComponent().path, O_RDONLY)
        if folderDescriptor >= 0 {
            _ = flushToDisk(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// Flushes what was written to `descriptor` to stable storage; returns 0, or the `errno` of the failure.
    /// On Darwin `fsync` only hands the data to the drive, whose cache a power cut empties; `F_FULLFSYNC`
    /// flushes that cache too. File systems that do not support it get `fsync`, the best they offer.
    static func flushToDisk(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) != -1 { return 0 }
        #endif
        return fsync(descriptor) == 0 ? 0 : errno
    }

    private static func existing(_ display: String) -> MockServerError {
        MockServerError(code: .fileExists, file: display, reason: "the file already exists; pass overwrite: true to replace it")
    }
}
