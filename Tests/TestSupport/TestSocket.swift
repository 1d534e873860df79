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

    /// Binds `fd` to 127.0.0.1 on an ephemeral port and returns the port; `nil` (`errno` set) when it cannot.
    package static func bindLoopback(_ fd: Int32) -> UInt16? {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(fd, address, length) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        return bound ? UInt16(bigEndian: address.sin_port) : nil
    }

    /// The next connection on the listening `fd`, waiting at most `milliseconds` for it; like ``makeTCP()``'s
    /// sockets it never raises SIGPIPE. -1 when none came in time or accepting failed.
    package static func acceptConnection(_ fd: Int32, waitingAtMost milliseconds: Int32) -> Int32 {
        var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, milliseconds) == 1 else { return -1 }
        #if canImport(Glibc)
        return Glibc.accept(fd, nil, nil)
        #else
        let connection = Darwin.accept(fd, nil, nil)
        guard connection >= 0 else { return connection }
        var one: Int32 = 1
        _ = setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        return connection
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
