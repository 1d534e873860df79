#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files, for the layers above that save cassettes and capture logs: blocking descriptors, unlike the loops'.
extension Sys {
    /// `open(2)`; the descriptor, or -1 with `errno` set.
    package static func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.open(path, flags, mode)
        #else
        Darwin.open(path, flags, mode)
        #endif
    }

    /// Writes all of `bytes` to the blocking descriptor `fd`, going on after a short write or a signal;
    /// returns 0, or the `errno` of the write that failed.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
            let result = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            #else
            let result = Darwin.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            #endif
            if result < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += result
        }
        return 0
    }
}
