import Foundation
import ServiceReplayTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP connection to a loopback port, for tests that need many connections open at once, each
/// under their control. Reads give up after 60 s, a hang guard only. Its calls block, so tests make them inside ``offThePool(_:)``.
final class PlainConnection: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let fd: Int32

    /// Connects to `127.0.0.1:port`; the kernel completes the handshake even before the server accepts.
    init(port: Int) throws {
        fd = TestSocket.makeTCP()
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "connect() failed: errno \(code)")
        }
    }

    deinit {
        disconnect()
    }

    private var isClosed = false

    func disconnect() {
        guard !isClosed else { return }
        isClosed = true
        close(fd)
    }

    /// Sends `GET target` and returns the status of the answer, read up to the end of its head (so one request
    /// per connection).
    func get(_ target: String) throws -> Int {
        let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        let sent = request.withUnsafeBytes { TestSocket.send(fd, $0.baseAddress, $0.count) }
        guard sent == request.count else { throw Failure(description: "send() failed: errno \(errno)") }
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.ends(with: Array("\r\n\r\n".utf8)) {
            guard recv(fd, &byte, 1, 0) == 1 else { throw Failure(description: "no complete answer head within 60 s: errno \(errno)") }
            head.append(byte)
        }
        let statusLine = String(decoding: head, as: UTF8.self).split(separator: " ")
        guard statusLine.count > 1, let status = Int(statusLine[1]) else { throw Failure(description: "not an HTTP answer") }
        return status
    }

    /// Sends `text` as it is: a whole request, as curl would write it.
    func write(_ text: String) throws {
        try write(bytes: Array(text.utf8))
    }

    /// Sends `bytes` as they are (a WebSocket frame, say).
    func write(bytes: [UInt8]) throws {
        let sent = bytes.withUnsafeBytes { TestSocket.send(fd, $0.baseAddress, $0.count) }
        guard sent == bytes.count else { throw Failure(description: "send() failed: errno \(errno)") }
    }

    /// Reads until the server closes the connection and returns what came as text; throws when nothing
    /// arrives for 60 s or more than `limit` bytes arrive.
    func readToEnd(limit: Int = 1 << 20) throws -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return String(decoding: received, as: UTF8.self) }
            guard count > 0 else { throw Failure(description: "the connection stalled or failed before it ended: errno \(errno)") }
            received += buffer[..<count]
            guard received.count <= limit else { throw Failure(description: "more than \(limit) bytes before the connection ended") }
        }
    }

    /// Reads until the bytes received end with `marker` and returns them as text; throws when the connection
    /// ends first or nothing arrives for 60 s.
    func read(through marker: String) throws -> String {
        var received: [UInt8] = []
        var byte: UInt8 = 0
        while !received.ends(with: Array(marker.utf8)) {
            guard recv(fd, &byte, 1, 0) == 1 else {
                throw Failure(description: "the connection ended or stalled before \(marker.debugDescription): errno \(errno)")
            }
            received.append(byte)
        }
        return String(decoding: received, as: UTF8.self)
    }
}

/// Runs blocking `work` on a thread of its own, so that it never holds a thread of the cooperative pool.
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
