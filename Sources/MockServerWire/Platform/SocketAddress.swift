#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 socket address, parsed from a numeric host (or `localhost`) and printable back.
package struct SocketAddress: @unchecked Sendable {
    private var storage: sockaddr_storage

    init(storage: sockaddr_storage) {
        self.storage = storage
    }

    /// Parses a numeric IPv4 or IPv6 host (`127.0.0.1`, `::1`, `[::1]`) or `localhost`; `nil` otherwise.
    package init?(host: String, port: UInt16) {
        var storage = sockaddr_storage()
        let name = host == "localhost" ? "127.0.0.1" : host.trimmingBrackets
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if inet_pton(AF_INET, name, &ipv4) == 1 {
            withUnsafeMutableBytes(of: &storage) { raw in
                var address = sockaddr_in()
                #if canImport(Darwin)
                address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
                #endif
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = port.bigEndian
                address.sin_addr = ipv4
                raw.storeBytes(of: address, as: sockaddr_in.self)
            }
        } else if inet_pton(AF_INET6, name, &ipv6) == 1 {
            withUnsafeMutableBytes(of: &storage) { raw in
                var address = sockaddr_in6()
                #if canImport(Darwin)
                address.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
                #endif
                address.sin6_family = sa_family_t(AF_INET6)
                address.sin6_port = port.bigEndian
                address.sin6_addr = ipv6
                raw.storeBytes(of: address, as: sockaddr_in6.self)
            }
        } else {
            return nil
        }
        self.storage = storage
    }

    /// The address a socket is bound to.
    static func local(of fd: Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return result == 0 ? SocketAddress(storage: storage) : nil
    }

    /// `AF_INET` or `AF_INET6`.
    var family: Int32 { Int32(storage.ss_family) }

    var isIPv6: Bool { family == Int32(AF_INET6) }

    /// The port in host byte order.
    var port: UInt16 {
        withUnsafeBytes(of: storage) { raw in
            isIPv6
                ? UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
                : UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
        }
    }

    /// The numeric host (`127.0.0.1`, `::1`), formatted in a stack buffer (this runs on every accept).
    var host: String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN) + 1) { text in
            text.initialize(repeating: 0)
            withUnsafeBytes(of: storage) { raw in
                if isIPv6 {
                    var address = raw.load(as: sockaddr_in6.self).sin6_addr
                    _ = inet_ntop(AF_INET6, &address, text.baseAddress, socklen_t(text.count))
                } else {
                    var address = raw.load(as: sockaddr_in.self).sin_addr
                    _ = inet_ntop(AF_INET, &address, text.baseAddress, socklen_t(text.count))
                }
            }
            return String(cString: text.baseAddress!)
        }
    }

    /// Calls `body` with a `sockaddr` pointer and the length of this address.
    func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        let length = socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        return withUnsafeBytes(of: storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }
}

private extension String {
    var trimmingBrackets: String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
    }
}
