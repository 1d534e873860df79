import Foundation

extension HTTPRequestContext {
    /// The context of a request answered in the client's own process, without a connection: it counts as
    /// coming from loopback (it never left the process), on connection 0, which no accepted connection has.
    package static let inProcess = HTTPRequestContext(
        connection: HTTPConnectionInfo(id: 0, remoteAddress: "127.0.0.1", remotePort: 0), requestIndex: 0)
}

/// A response head as a client reads it off the wire: the status and every header line the server writes,
/// its own additions (`Content-Length`, `Date`, `Server`, `Connection: close`) included, in order.
package struct ResponseHead: Sendable, Equatable {
    /// The status code on the status line.
    package let status: Int
    /// The header lines in the order written, values without surrounding spaces and tabs (as clients read them).
    package let lines: [HTTPHeader]
    /// Whether body bytes follow the head (not for HEAD, 1xx, 204 and 304, nor for an empty body).
    package let hasBody: Bool
}

extension HTTPServer {
    /// What the server's handler answers `request`, as if it had arrived on a connection from loopback: for a
    /// client in the same process that needs no socket. Nothing of the server's own is applied: no limit, no
    /// admission, no `Expect`; the caller sends only requests that would have passed them.
    package func replyInProcess(to request: HTTPRequest) -> HTTPReply {
        handler.reply(to: request, context: .inProcess)
    }

    /// Whether `request` is within the limits a connection enforces (request line, header block and count,
    /// body), counted as the client would write it (`Host` included); one beyond them must take the socket,
    /// where the server refuses it (431, 413) as it refuses any other.
    package func admitsInProcess(_ request: HTTPRequest) -> Bool {
        let requestLine = request.method.utf8.count + request.target.utf8.count + " HTTP/1.1".utf8.count
        guard requestLine <= max(16, configuration.maxRequestLineLength), request.headers.count <= max(0, configuration.maxHeaderCount),
            request.body.count <= max(0, configuration.maxBodyBytes)
        else { return false }
        var headBytes = requestLine + 2
        for line in request.headers.lines {
            headBytes += line.name.utf8.count + line.value.utf8.count + 4
        }
        return headBytes + 2 <= max(16, configuration.maxHeaderBytes)
    }

    /// The head a client reads for `response` to a request (`isHEAD`), as a connection would write it now (with
    /// this second's `Date`), chunked when `streamed`; `nil` when reading the head is not enough to read the
    /// answer whole, so that only the socket shows what a client makes of it: a 1xx status, a `Content-Length`
    /// that differs from the body, a `Transfer-Encoding` the handler set itself.
    package func head(of response: HTTPResponse, isHEAD: Bool, streamed: Bool) -> ResponseHead? {
        guard response.status >= 200 else { return nil }
        var framing = ResponseFraming(isHEAD: isHEAD, streamsChunks: streamed)
        if configuration.sendsDateHeader {
            framing.dateLine = dateCache.withLock { cache in
                cache.refresh()
                return cache.line
            }
        }
        framing.serverLine = serverLine
        var written = response
        if streamed { written.headers.add(name: "Transfer-Encoding", value: "chunked") }
        var sink = HeadSink()
        var framingIsExact = true
        _ = ResponseWriter.write(written, framing: framing, into: &sink, framingIsExact: &framingIsExact)
        guard framingIsExact else { return nil }
        let status = written.status <= 999 ? written.status : 500
        let hasBody = !isHEAD && status != 204 && status != 304 && (streamed || !written.body.isEmpty)
        return ResponseHead(status: status, lines: sink.lines(), hasBody: hasBody)
    }
}

/// A ``ByteSink`` that keeps the head's bytes and drops the body's.
private struct HeadSink: ByteSink {
    var bytes: [UInt8] = []

    mutating func append(_ raw: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: raw)
    }

    mutating func append(body: Data) {}

    /// The header lines of the head written: every line after the status line up to the empty one, split at
    /// its first colon, the value trimmed of spaces and tabs.
    func lines() -> [HTTPHeader] {
        var lines: [HTTPHeader] = []
        var start = 0
        var isStatusLine = true
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == ASCII.cr, bytes[index + 1] == ASCII.lf else {
                index += 1
                continue
            }
            defer {
                index += 2
                start = index
            }
            if isStatusLine {
                isStatusLine = false
                continue
            }
            let line = bytes[start..<index]
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            var value = line[(colon + 1)...].drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            while let last = value.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { value = value.dropLast() }
            lines.append(HTTPHeader(name: String(decoding: line[..<colon], as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
        }
        return lines
    }
}
