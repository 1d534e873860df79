import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback port that refuses connections: a TCP socket bound to it but never listening. Holding the
/// socket keeps the port reserved, so no other test's server can start listening there while a test
/// expects a refusal (a port freed by a stopped server could be reused at once by a parallel test).
final class ClosedPort {
    /// `http://127.0.0.1:PORT`.
    let baseURL: URL
    private let descriptor: Int32

    /// Reserves an ephemeral loopback port; throws when the socket calls fail.
    init() throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw FixtureProblem("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw FixtureProblem("cannot reserve a loopback port: errno \(errno)")
        }
        self.descriptor = descriptor
        self.baseURL = try URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))").orThrow("no URL for the reserved port")
    }

    deinit {
        close(descriptor)
    }
}
