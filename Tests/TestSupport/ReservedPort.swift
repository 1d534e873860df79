import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback port held by a bound socket that never listens, so that no parallel test's server is given it
/// (a port freed by a stopped server could be reused at once by a parallel test). Connecting to it is
/// refused for as long as the reservation lives.
package final class ReservedPort: Sendable {
    /// The reserved port.
    package let port: UInt16
    private let descriptor: Int32

    /// `http://127.0.0.1:PORT`.
    package var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Reserves an ephemeral loopback port; throws a ``Failure`` when the socket calls fail. With
    /// `sharedWithServers`, the socket sets `SO_REUSEADDR` as servers do, so that a server started on the
    /// port may still listen there (Linux only: BSD sockets do not let two sockets bind one address this way).
    package init(sharedWithServers: Bool = false) throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        if sharedWithServers {
            var one: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        guard let port = TestSocket.bindLoopback(descriptor) else {
            close(descriptor)
            throw Failure(description: "cannot reserve a loopback port: errno \(errno)")
        }
        self.descriptor = descriptor
        self.port = port
    }

    deinit {
        close(descriptor)
    }

    /// Why a port could not be reserved.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }
}
