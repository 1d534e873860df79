import Foundation

/// What the server adds to a handler's response, decided per request and connection.
struct ResponseFraming {
    /// The request was HEAD: headers as for GET, no body.
    var isHEAD = false
    /// The client allows the connection to stay open.
    var keepAliveRequested = true
    /// The client spoke HTTP/1.0, so keep-alive must be stated explicitly.
    var isHTTP10 = false
    /// Whether to add `Connection` at all (``HTTPResponse/serialized`` does not).
    var writesConnectionHeader = true
    /// A complete `Date: ...\r\n` line, or empty.
    var dateLine: [UInt8] = []
    /// A complete `Server: ...\r\n` line, or empty.
    var serverLine: [UInt8] = []
    /// The server itself chunk-frames the body that follows (a stream), so a `Transfer-Encoding: chunked`
    /// head still leaves the framing exact and the connection reusable.
    var streamsChunks = false
    /// The server itself sends the body that follows, exactly as long as the head's `Content-Length` says
    /// (a live stream of declared length), so the empty body written here leaves the framing exact.
    var streamsDeclaredLength = false
    /// The response switches protocols (a WebSocket's 101): the handler's `Connection` (`Upgrade`) is written as it
    /// is, and the server adds none of its own.
    var switchesProtocols = false
}

/// Serializes an ``HTTPResponse`` onto the wire (RFC 9112 §4, §6).
enum ResponseWriter {
    /// Writes the status line, headers and body of `response` into `sink`, and returns whether the
    /// connection may be kept open afterwards (the client allows it, the response does not ask to close,
    /// and the framing the client sees is exact).
    static func write<Sink: ByteSink & ~Copyable>(_ response: HTTPResponse, framing: ResponseFraming, into sink: inout Sink) -> Bool {
        var framingIsExact = true
        return write(response, framing: framing, into: &sink, framingIsExact: &framingIsExact)
    }

    /// ``write(_:framing:into:)``, telling also whether the framing the client sees is exact (`framingIsExact`):
    /// the client can tell where the body ends without the connection closing.
    static func write<Sink: ByteSink & ~Copyable>(
        _ response: HTTPResponse, framing: ResponseFraming, into sink: inout Sink, framingIsExact: inout Bool
    ) -> Bool {
        let status = (100...999).contains(response.status) ? response.status : 500
        let bodyAllowed = status >= 200 && status != 204 && status != 304
        let sendsBody = bodyAllowed && !framing.isHEAD && !response.body.isEmpty

        sink.append("HTTP/1.1 ")
        sink.append(decimal: status)
        sink.append(" ")
        sink.append(fieldText: HTTPResponse.reasonPhrase(for: status))
        sink.append("\r\n")

        var declaredLength: Int?
        var hasContentLength = false
        var hasTransferEncoding = false
        var asksToClose = false
        var hasDate = false
        var hasServer = false
        for header in response.headers {
            switch header.name.utf8.count {
            case 14 where header.name.caseInsensitiveEquals("content-length"):
                hasContentLength = true
                declaredLength = contentLength(header.value)
            case 17 where header.name.caseInsensitiveEquals("transfer-encoding"):
                hasTransferEncoding = true
            case 10 where !framing.switchesProtocols && header.name.caseInsensitiveEquals("connection"):
                // Hop-by-hop: the server writes its own; the handler's can only ask to close.
                asksToClose =
                    asksToClose || header.value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).caseInsensitiveEquals("close") }
                continue
            case 10 where header.name.caseInsensitiveEquals("keep-alive"):
                // Hop-by-hop (a recorded "timeout=5, max=100" would describe another server).
                continue
            case 4 where header.name.caseInsensitiveEquals("date"):
                hasDate = true
            case 6 where header.name.caseInsensitiveEquals("server"):
                hasServer = true
            default:
                break
            }
            sink.append(fieldText: header.name)
            sink.append(": ")
            sink.append(fieldText: header.value)
            sink.append("\r\n")
        }

        let writtenBodyLength = sendsBody ? response.body.count : 0
        framingIsExact = true
        if hasTransferEncoding {
            // The handler framed the body itself; only closing makes its end unambiguous.
            framingIsExact = framing.streamsChunks
        } else if hasContentLength {
            framingIsExact = framing.isHEAD || !bodyAllowed || framing.streamsDeclaredLength ? true : declaredLength == writtenBodyLength
        } else if bodyAllowed {
            sink.append("Content-Length: ")
            sink.append(decimal: response.body.count)
            sink.append("\r\n")
        }
        if !hasDate { sink.append(framing.dateLine) }
        if !hasServer { sink.append(framing.serverLine) }

        let keepAlive = framing.keepAliveRequested && !asksToClose && framingIsExact
        if framing.switchesProtocols {
            // The handler's `Connection: Upgrade` was written with its other fields.
        } else if !keepAlive && (framing.writesConnectionHeader || asksToClose) {
            sink.append("Connection: close\r\n")
        } else if keepAlive && framing.isHTTP10 && framing.writesConnectionHeader {
            sink.append("Connection: keep-alive\r\n")
        }
        sink.append("\r\n")
        if sendsBody { sink.append(body: response.body) }
        return keepAlive
    }

    /// The value of a `Content-Length` field, spaces and tabs around it ignored; `nil` unless it is a number.
    /// Byte-level, without Foundation's trimming: every replayed response carries this field.
    static func contentLength(_ value: String) -> Int? {
        if let length = Int(value) { return length }
        let utf8 = value.utf8
        guard let first = utf8.firstIndex(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }),
            let last = utf8.lastIndex(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") })
        else { return nil }
        return Int(value[first...last])
    }
}
