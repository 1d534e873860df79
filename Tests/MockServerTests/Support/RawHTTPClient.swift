import Foundation
@testable import MockServer
import ServiceReplayTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP client for tests that need exact control of the bytes on the wire: malformed,
/// partial, pipelined or slow requests, and exact observation of what comes back (bytes, FIN, RST).
/// Every wait is bounded by a deadline; nothing here sleeps to wait for the server. Reads run on a
/// thread of their own, so that tests blocked on the wire never occupy the cooperative thread pool that
/// the server's asynchronous replies need. Used by one task at a time, hence `@unchecked Sendable`.
final class RawHTTPClient: @unchecked Sendable {
    /// How a read ended.
    enum Ending: Equatable, Sendable {
        /// The server closed gracefully (FIN).
        case closed
        /// The server reset the connection (ECONNRESET).
        case reset
        /// Nothing more arrived before the deadline; the connection is still open.
        case timedOut
    }

    /// One response as parsed from the wire.
    struct Response: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: Data
        /// The status line and header lines exactly as received.
        var head: String

        var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let fd: Int32
    /// Bytes received but not yet returned.
    private var buffer: [UInt8] = []
    private var isClosed = false

    /// Connects to `127.0.0.1:port`.
    init(port: Int) throws {
        fd = try connectedSocket(port: port)
    }

    convenience init(_ url: URL) throws {
        try self.init(port: url.port ?? 80)
    }

    deinit {
        close()
    }

    /// Sends all of `bytes`.
    func send(_ bytes: Data) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = TestSocket.send(fd, raw.baseAddress! + offset, raw.count - offset)
                guard sent > 0 else { throw Failure(description: "send failed: errno \(errno)") }
                offset += sent
            }
        }
    }

    /// Sends `text` as UTF-8.
    func send(_ text: String) throws {
        try send(Data(text.utf8))
    }

    /// Half-closes: no more bytes will be sent, reading still works.
    func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Closes the socket (idempotent).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        closeSocket(fd)
    }

    /// How long a read waits by default: only a bound against a hang. Under load the suite's two cooperative
    /// threads can be busy for over ten seconds before a server's asynchronous answer runs; a test that expects
    /// nothing to arrive passes its own short timeout.
    static let hangGuard: Duration = .seconds(60)

    /// Reads one response, parsing `Content-Length`, chunked or read-until-close framing. For an answer
    /// to HEAD pass `forHEAD` so that no body is expected.
    func readResponse(forHEAD: Bool = false, timeout: Duration = RawHTTPClient.hangGuard) async throws -> Response {
        try await onThread { try self.readResponseBlocking(forHEAD: forHEAD, timeout: timeout) }
    }

    /// Reads exactly `count` bytes; throws when the connection ends first or `timeout` passes.
    func read(count: Int, timeout: Duration = RawHTTPClient.hangGuard) async throws -> Data {
        try await onThread { try self.readExactly(count, deadline: ContinuousClock.now + timeout) }
    }

    /// Reads until the bytes received contain `marker`, and returns them up to the marker's end; throws when
    /// the connection ends first or `timeout` passes.
    func read(through marker: String, timeout: Duration = RawHTTPClient.hangGuard) async throws -> Data {
        try await onThread { try self.readThrough(Array(marker.utf8), deadline: ContinuousClock.now + timeout) }
    }

    /// Reads everything until the server closes or resets the connection, or `timeout` passes.
    func readToEnd(timeout: Duration = RawHTTPClient.hangGuard) async -> (bytes: Data, ending: Ending) {
        // The work cannot throw; the force is for the generic helper's signature.
        try! await onThread { self.readToEndBlocking(timeout: timeout) }
    }

    /// Reads the next chunk of a chunked body whose head was read already: its bytes, or `nil` for the last
    /// (empty) chunk, which this reads with its trailers.
    func readChunk(timeout: Duration = RawHTTPClient.hangGuard) async throws -> Data? {
        try await onThread {
            let deadline = ContinuousClock.now + timeout
            let sizeLine = try self.readLine(deadline: deadline)
            guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
                throw Failure(description: "bad chunk size \(sizeLine.debugDescription)")
            }
            if size == 0 {
                while try !self.readLine(deadline: deadline).isEmpty {}
                return nil
            }
            let chunk = try self.readExactly(size, deadline: deadline)
            guard try self.readLine(deadline: deadline).isEmpty else { throw Failure(description: "chunk not followed by CRLF") }
            return chunk
        }
    }

    /// ``readResponse(forHEAD:timeout:)`` on the calling thread, which it blocks.
    func readResponseBlocking(forHEAD: Bool = false, timeout: Duration) throws -> Response {
        let deadline = ContinuousClock.now + timeout
        var headEnd = buffer.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound
        while headEnd == nil {
            if let ending = try fill(until: deadline) {
                throw Failure(description: "connection \(ending) before a complete response head: \(String(decoding: buffer, as: UTF8.self).debugDescription)")
            }
            headEnd = buffer.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound
        }
        let end = headEnd!
        let head = String(decoding: buffer[..<(end - 4)], as: UTF8.self)
        buffer.removeFirst(end)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure(description: "bad status line in \(head.debugDescription)") }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw Failure(description: "bad header line \(line.debugDescription)") }
            headers.add(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Data()
        if forHEAD || (100..<200).contains(status) || status == 204 || status == 304 {
            // no body
        } else if let length = headers["Content-Length"].flatMap(Int.init) {
            body = try readExactly(length, deadline: deadline)
        } else if headers["Transfer-Encoding"]?.lowercased() == "chunked" {
            body = try readChunked(deadline: deadline)
        } else {
            let (rest, ending) = readToEndBlocking(timeout: deadline - ContinuousClock.now)
            guard ending != .timedOut else { throw Failure(description: "close-delimited body did not end in time") }
            body = rest
        }
        return Response(status: status, headers: headers, body: body, head: head)
    }

    private func readToEndBlocking(timeout: Duration) -> (bytes: Data, ending: Ending) {
        let deadline = ContinuousClock.now + timeout
        var ending: Ending?
        while ending == nil {
            do {
                ending = try fill(until: deadline)
            } catch {
                ending = .timedOut
            }
        }
        defer { buffer.removeAll() }
        return (Data(buffer), ending!)
    }

    private func readExactly(_ count: Int, deadline: ContinuousClock.Instant) throws -> Data {
        while buffer.count < count {
            if let ending = try fill(until: deadline) {
                throw Failure(description: "connection \(ending) after \(buffer.count) of \(count) body bytes")
            }
        }
        defer { buffer.removeFirst(count) }
        return Data(buffer[..<count])
    }

    private func readThrough(_ marker: [UInt8], deadline: ContinuousClock.Instant) throws -> Data {
        while true {
            if let range = buffer.firstRange(of: marker) {
                defer { buffer.removeFirst(range.upperBound) }
                return Data(buffer[..<range.upperBound])
            }
            if let ending = try fill(until: deadline) {
                throw Failure(description: "connection \(ending) before \(String(decoding: marker, as: UTF8.self).debugDescription)")
            }
        }
    }

    private func readLine(deadline: ContinuousClock.Instant) throws -> String {
        while true {
            if let range = buffer.firstRange(of: Array("\r\n".utf8)) {
                defer { buffer.removeFirst(range.upperBound) }
                return String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
            }
            if let ending = try fill(until: deadline) { throw Failure(description: "connection \(ending) inside a chunked body") }
        }
    }

    private func readChunked(deadline: ContinuousClock.Instant) throws -> Data {
        var body = Data()
        while true {
            let sizeLine = try readLine(deadline: deadline)
            guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
                throw Failure(description: "bad chunk size \(sizeLine.debugDescription)")
            }
            if size == 0 {
                while try !readLine(deadline: deadline).isEmpty {}
                return body
            }
            body.append(try readExactly(size, deadline: deadline))
            guard try readLine(deadline: deadline).isEmpty else { throw Failure(description: "chunk not followed by CRLF") }
        }
    }

    /// Waits for bytes until `deadline` and appends them; returns how the stream ended, or `nil` when
    /// bytes arrived. Throws when the deadline passes first.
    private func fill(until deadline: ContinuousClock.Instant) throws -> Ending? {
        let remaining = deadline - ContinuousClock.now
        let milliseconds = Int32(clamping: max(0, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { throw Failure(description: "timed out waiting for data") }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &chunk, chunk.count, 0)
        if count > 0 {
            buffer += chunk[..<count]
            return nil
        }
        if count == 0 { return .closed }
        return errno == ECONNRESET ? .reset : .closed
    }
}

/// Runs blocking work on a new thread and returns its result.
func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

// Free functions, because the client's own `send` and `close` shadow the C ones.

private func connectedSocket(port: Int) throws -> Int32 {
    var address = sockaddr_in()
    #if canImport(Darwin)
    address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    let fd = TestSocket.makeTCP()
    guard fd >= 0 else { throw RawHTTPClient.Failure(description: "socket() failed: errno \(errno)") }
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard result == 0 else {
        let code = errno
        close(fd)
        throw RawHTTPClient.Failure(description: "connect to port \(port) failed: errno \(code)")
    }
    return fd
}

private func closeSocket(_ fd: Int32) {
    close(fd)
}
