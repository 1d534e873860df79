import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket calls of the tests' raw clients, in one place so that none of them can die of SIGPIPE: a write
/// to a connection the server reset raises SIGPIPE, which kills the whole test process unless suppressed,
/// per socket on Darwin (`SO_NOSIGPIPE`) and per call on Linux (`MSG_NOSIGNAL`).
package enum TestSocket {
    /// A new TCP socket (blocking) that never raises SIGPIPE; -1 with `errno` set when none can be made.
    package static func makeTCP() -> Int32 {
        #if canImport(Glibc)
        return socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        guard fd >= 0 else { return fd }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
        #endif
    }

    /// `send(2)` without SIGPIPE: a reset connection fails with EPIPE or ECONNRESET instead.
    package static func send(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.send(fd, bytes, count, Int32(MSG_NOSIGNAL))
        #else
        return Darwin.send(fd, bytes, count, 0)
        #endif
    }
}
