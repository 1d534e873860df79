import Foundation
import ServiceReplayShared

/// A blocking WebSocket client (RFC 6455) over plain TCP (`ws://`, no TLS), for tests and for capturing from an
/// upstream: run it on a thread of its own, or in a `Task` that may block. Every call waits at most its `timeout`,
/// so nothing can hang. Frames it sends are masked with a random key; frames it reads must be unmasked, and any
/// violation is refused (``WebSocketClientError/protocolViolation(_:)``). Pings are answered with pongs as they are
/// read. One reader and one writer may work at once (receiving and sending from two threads); ``closeSocket()``
/// must not race either.
package final class WebSocketClient: Sendable {
    /// What ``receive(timeout:)`` keeps between calls, under one lock.
    private final class Reader {
        var buffer: [UInt8] = []
        var parser = WebSocketFrameParser(role: .client, maxFrameSize: .max)
        var assembler = WebSocketMessageAssembler(maxMessageSize: .max)
        var ended = false
    }

    /// The server's `101` (status and headers; no body).
    package let response: HTTPResponse
    private let fd: Int32
    private let reader: Lock<Reader>
    /// Whether ``closeSocket()`` ran; sends take this lock, so that one frame's bytes are never interleaved.
    private let writer = Lock(false)

    /// Connects to `host` (a numeric address or `localhost`) on `port` and does the opening handshake for `path` with
    /// a random key, offering `subprotocols` (in order) and sending `headers` after the handshake's own; checks the
    /// server's `Sec-WebSocket-Accept`, and that a subprotocol it chose was offered. Frames the server sent right
    /// after its `101` are kept for ``receive(timeout:)``.
    /// - Throws: ``WebSocketClientError/rejected(status:headers:body:)`` for an answer other than 101, `failed` when
    ///   the connection fails or the 101 is wrong, `timedOut` after `timeout`.
    package init(
        host: String, port: Int, path: String = "/", headers: HTTPHeaders = [:], subprotocols: [String] = [],
        timeout: Duration = .seconds(10)
    ) throws(WebSocketClientError) {
        let deadline = Self.deadline(after: timeout)
        guard let port = UInt16(exactly: port), let address = SocketAddress(host: host, port: port) else {
            throw .failed("\(host):\(port) is no numeric address and port.")
        }
        let fd: Int32
        switch Sys.connect(to: address) {
        case .failed(let code):
            throw .failed("Connecting to \(host):\(port) failed: \(Sys.describe(code)).")
        case .started(let started):
            fd = started
        }
        do {
            try Self.wait(fd, forWriting: true, until: deadline, "connecting to \(host):\(port)")
            let code = Sys.pendingError(fd)
            guard code == 0 else { throw WebSocketClientError.failed("Connecting to \(host):\(port) failed: \(Sys.describe(code)).") }
            let key = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString()
            var request = "GET \(path) HTTP/1.1\r\nHost: \(host.contains(":") ? "[\(host)]" : host):\(port)\r\n"
            request += "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
            if !subprotocols.isEmpty { request += "Sec-WebSocket-Protocol: \(subprotocols.joined(separator: ", "))\r\n" }
            for line in headers { request += "\(line.name): \(line.value)\r\n" }
            request += "\r\n"
            try Self.sendAll(fd, Data(request.utf8), until: deadline)
            let reader = Reader()
            let response = try Self.readHead(fd, into: reader, until: deadline)
            guard response.status == 101 else {
                throw WebSocketClientError.rejected(
                    status: response.status, headers: response.headers, body: Self.readBody(fd, of: response, after: reader, until: deadline))
            }
            try Self.check(response, key: key, offered: subprotocols)
            self.fd = fd
            self.response = response
            self.reader = Lock(reader)
        } catch let error as WebSocketClientError {
            Sys.close(fd)
            throw error
        } catch {
            Sys.close(fd)
            throw .failed("\(error)")
        }
    }

    deinit {
        closeSocket()
    }

    /// The subprotocol the server chose, if any.
    package var subprotocol: String? { response.headers["Sec-WebSocket-Protocol"] }

    /// Sends `message` as one masked frame.
    package func send(_ message: WebSocketMessage, timeout: Duration = .seconds(10)) throws(WebSocketClientError) {
        switch message {
        case .text(let text): try sendFrame(WebSocketFrame(opcode: .text, payload: Data(text.utf8)), timeout: timeout)
        case .binary(let data): try sendFrame(WebSocketFrame(opcode: .binary, payload: data), timeout: timeout)
        }
    }

    /// Sends `frame` masked with `maskingKey` (a random one by default), or unmasked when `masked` is false (which a
    /// server must refuse): for tests of fragments, control frames and violations.
    package func sendFrame(
        _ frame: WebSocketFrame, masked: Bool = true, maskingKey: WebSocketMaskingKey = .random(), timeout: Duration = .seconds(10)
    ) throws(WebSocketClientError) {
        try sendRaw(WebSocketFrameWriter.encode(frame, maskingKey: masked ? maskingKey : nil), timeout: timeout)
    }

    /// Sends `bytes` as they are (a malformed frame, a header with reserved bits, a reserved opcode).
    package func sendRaw(_ bytes: Data, timeout: Duration = .seconds(10)) throws(WebSocketClientError) {
        let deadline = Self.deadline(after: timeout)
        try writer.withLock { closed throws(WebSocketClientError) in
            guard !closed else { throw WebSocketClientError.failed("The client's socket is closed.") }
            try Self.sendAll(fd, bytes, until: deadline)
        }
    }

    /// Sends a close frame with `code` (none: a close without a body) and `reason`; the socket stays open, so that the
    /// server's answer and its closing can be read.
    package func close(code: UInt16?, reason: String = "", timeout: Duration = .seconds(10)) throws(WebSocketClientError) {
        try sendFrame(WebSocketFrame(opcode: .close, payload: WebSocketClose(code: code, reason: reason).payload), timeout: timeout)
    }

    /// Closes the TCP connection (FIN) at once; idempotent.
    package func closeSocket() {
        let wasOpen = writer.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if wasOpen { Sys.close(fd) }
    }

    /// Reads the next message, control frame or the end, waiting at most `timeout`.
    /// - Throws: `timedOut` when nothing whole arrived in time (what did arrive is kept), `protocolViolation` when the
    ///   server's frames break the protocol.
    package func receive(timeout: Duration = .seconds(10)) throws(WebSocketClientError) -> WebSocketClientEvent {
        let deadline = Self.deadline(after: timeout)
        let (event, pong) = try reader.withLock { reader throws(WebSocketClientError) -> (WebSocketClientEvent, Data?) in
            while !reader.ended {
                let (consumed, outcome) = reader.buffer.withUnsafeBytes { reader.parser.parse($0) }
                reader.buffer.removeFirst(consumed)
                switch outcome {
                case .needsMore:
                    guard try Self.fill(fd, into: reader, until: deadline) else { reader.ended = true; break }
                case .refused(let close):
                    reader.ended = true
                    throw WebSocketClientError.protocolViolation(close)
                case .frame(let frame):
                    switch reader.assembler.add(frame) {
                    case .fragment: continue
                    case .message(let message): return (.message(message), nil)
                    case .ping(let payload): return (.ping(payload), payload)
                    case .pong(let payload): return (.pong(payload), nil)
                    case .close(let close): return (.close(close), nil)
                    case .refused(let close):
                        reader.ended = true
                        throw WebSocketClientError.protocolViolation(close)
                    }
                }
            }
            return (.ended, nil)
        }
        if let pong { try? sendFrame(WebSocketFrame(opcode: .pong, payload: pong), timeout: timeout) }
        return event
    }

    // MARK: - The socket

    private static func deadline(after timeout: Duration) -> UInt64 {
        let now = Sys.monotonicNanos()
        let (sum, overflow) = now.addingReportingOverflow(timeout.clampedNanoseconds)
        return overflow ? .max : sum
    }

    /// Waits until `fd` is ready or throws `timedOut` naming `doing` at `deadline`.
    private static func wait(_ fd: Int32, forWriting: Bool, until deadline: UInt64, _ doing: String) throws(WebSocketClientError) {
        while true {
            let now = Sys.monotonicNanos()
            guard now < deadline else { throw .timedOut("Timed out \(doing).") }
            let milliseconds = Int32(clamping: (deadline - now + 999_999) / 1_000_000)
            if Sys.waitUntilReady(fd, forWriting: forWriting, timeoutMilliseconds: milliseconds) { return }
        }
    }

    private static func sendAll(_ fd: Int32, _ bytes: Data, until deadline: UInt64) throws(WebSocketClientError) {
        var offset = 0
        while offset < bytes.count {
            let outcome = bytes.withUnsafeBytes { raw in Sys.send(fd, from: raw.baseAddress! + offset, count: raw.count - offset) }
            switch outcome {
            case .moved(let count):
                offset += count
            case .wouldBlock, .endOfFile:
                try wait(fd, forWriting: true, until: deadline, "sending to the server")
            case .failed(let code):
                throw .failed("Sending to the server failed: \(Sys.describe(code)).")
            }
        }
    }

    /// Reads once into `reader`'s buffer, waiting until `deadline`; `false` when the server closed or reset the
    /// connection.
    private static func fill(_ fd: Int32, into reader: Reader, until deadline: UInt64) throws(WebSocketClientError) -> Bool {
        while true {
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let outcome = chunk.withUnsafeMutableBytes { Sys.receive(fd, into: $0.baseAddress!, count: $0.count) }
            switch outcome {
            case .moved(let count):
                reader.buffer += chunk[..<count]
                return true
            case .endOfFile, .failed:
                return false
            case .wouldBlock:
                try wait(fd, forWriting: false, until: deadline, "waiting for the server")
            }
        }
    }

    // MARK: - The handshake

    /// Reads the response head (at most 64 KiB) and leaves what follows it in `reader`.
    private static func readHead(_ fd: Int32, into reader: Reader, until deadline: UInt64) throws(WebSocketClientError) -> HTTPResponse {
        let end = Array("\r\n\r\n".utf8)
        while true {
            if let range = reader.buffer.firstRange(of: end) {
                let head = String(decoding: reader.buffer[..<range.lowerBound], as: UTF8.self)
                reader.buffer.removeFirst(range.upperBound)
                return try parseHead(head)
            }
            guard reader.buffer.count < 64 * 1024 else { throw .failed("The server's answer has no end of its head within 64 KiB.") }
            guard try fill(fd, into: reader, until: deadline) else { throw .failed("The server closed the connection before answering the handshake.") }
        }
    }

    private static func parseHead(_ head: String) throws(WebSocketClientError) -> HTTPResponse {
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            throw .failed("The server's answer is no HTTP/1.1 response: \(head.prefix(200).debugDescription)")
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw .failed("The server's answer has a malformed header line \(line.debugDescription).") }
            headers.add(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return HTTPResponse(status: status, headers: headers)
    }

    /// The body of a refusal: by its `Content-Length`, chunked, or until the server closes; whatever arrived by the
    /// deadline.
    private static func readBody(_ fd: Int32, of response: HTTPResponse, after reader: Reader, until deadline: UInt64) -> Data {
        let chunked = response.headers["Transfer-Encoding"].map { $0.lowercased().contains("chunked") } ?? false
        let length = response.headers["Content-Length"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        var decoder = ChunkedBodyDecoder()
        var body = Data()
        let limits = ParserLimits(maxRequestLineLength: 0, maxHeaderBytes: 0, maxHeaderCount: 0, maxBodyBytes: 16 << 20)
        while true {
            if chunked {
                let (consumed, outcome) = reader.buffer.withUnsafeBytes { decoder.decode($0, into: &body, limits: limits) }
                reader.buffer.removeFirst(consumed)
                if outcome != .needsMore { return body }
            } else if let length, reader.buffer.count >= length {
                return Data(reader.buffer.prefix(length))
            } else if response.status == 204 || response.status == 304 || length == 0 {
                return Data()
            }
            guard (try? fill(fd, into: reader, until: deadline)) == true else { return chunked ? body : Data(reader.buffer) }
        }
    }

    /// Checks the 101 against the handshake sent: `Upgrade`, `Connection`, the accept value, the subprotocol.
    private static func check(_ response: HTTPResponse, key: String, offered: [String]) throws(WebSocketClientError) {
        guard WebSocketHandshake.tokens(of: "Upgrade", in: response.headers).contains(where: { $0.caseInsensitiveEquals("websocket") }),
            WebSocketHandshake.tokens(of: "Connection", in: response.headers).contains(where: { $0.caseInsensitiveEquals("upgrade") })
        else { throw .failed("The server's 101 lacks `Upgrade: websocket` or `Connection: Upgrade`.") }
        guard response.headers["Sec-WebSocket-Accept"] == WebSocketHandshake.accept(forKey: key) else {
            throw .failed("The server's Sec-WebSocket-Accept does not match the key sent.")
        }
        if let chosen = response.headers["Sec-WebSocket-Protocol"], !offered.contains(chosen) {
            throw .failed("The server chose the subprotocol \(chosen), which was not offered.")
        }
        guard response.headers["Sec-WebSocket-Extensions"] == nil else {
            throw .failed("The server chose an extension, though none was offered.")
        }
    }
}
