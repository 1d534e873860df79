/// Parses a complete request head (as delimited by ``RequestHeadScanner``) into a ``RequestHead``,
/// validating the request line, every field and the body framing (RFC 9112 §3, §5, §6).
enum RequestHeadParser {
    /// Parses `head`, which ends with the empty line.
    static func parse(_ head: UnsafeRawBufferPointer, limits: ParserLimits) throws(RequestRejection) -> RequestHead {
        var lines = LineIterator(head)
        guard let requestLine = try lines.next() else { throw .malformed("The request line is missing.") }
        let (method, target, version, isHTTP10) = try parseRequestLine(requestLine)

        var fields = FramingFields()
        var headers: [HTTPHeader] = []
        headers.reserveCapacity(8)
        while let line = try lines.next(), line.count > 0 {
            guard headers.count < limits.maxHeaderCount else {
                throw .headTooLarge("The request has more than \(limits.maxHeaderCount) header fields.")
            }
            let (name, value) = try splitField(line)
            try fields.note(name: name, value: value)
            headers.append(HTTPHeader(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
        }

        let framing = try fields.framing(isHTTP10: isHTTP10, limits: limits)
        let request = HTTPRequest(method: method, target: target, version: version, headers: HTTPHeaders(headers))
        return RequestHead(
            request: request,
            framing: framing,
            wantsKeepAlive: isHTTP10 ? fields.keepAliveToken && !fields.closeToken : !fields.closeToken,
            expectsContinue: !isHTTP10 && fields.expectsContinue,
            hasUnsupportedExpectation: !isHTTP10 && fields.unsupportedExpectation,
            isHEAD: method == "HEAD",
            isHTTP10: isHTTP10
        )
    }

    /// `method SP request-target SP HTTP-version`, with exactly one space between parts.
    private static func parseRequestLine(_ line: UnsafeRawBufferPointer) throws(RequestRejection) -> (String, String, String, Bool) {
        guard let firstSpace = line.firstIndex(of: ASCII.space),
            let secondSpace = line.firstIndex(of: ASCII.space, from: firstSpace + 1)
        else {
            throw .malformed("The request line is not 'METHOD target HTTP/1.1'.")
        }
        let method = UnsafeRawBufferPointer(rebasing: line[..<firstSpace])
        let target = UnsafeRawBufferPointer(rebasing: line[(firstSpace + 1)..<secondSpace])
        let version = UnsafeRawBufferPointer(rebasing: line[(secondSpace + 1)...])
        guard !method.isEmpty, method.allSatisfy(ASCII.isToken) else {
            throw .malformed("The request method is not a valid token.")
        }
        guard !target.isEmpty, target.allSatisfy(ASCII.isTargetByte) else {
            throw .malformed("The request target is empty or contains characters that must be percent-encoded.")
        }
        let isHTTP10 = try parseVersion(version)
        let versionText = isHTTP10 ? "HTTP/1.0" : (version.equals("HTTP/1.1") ? "HTTP/1.1" : String(decoding: version, as: UTF8.self))
        return (String(decoding: method, as: UTF8.self), String(decoding: target, as: UTF8.self), versionText, isHTTP10)
    }

    /// Accepts `HTTP/1.x`; other majors get 505, anything else 400. Returns whether it is HTTP/1.0.
    private static func parseVersion(_ version: UnsafeRawBufferPointer) throws(RequestRejection) -> Bool {
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard version.count == 8, UnsafeRawBufferPointer(rebasing: version[..<5]).equals("HTTP/"),
            isDigit(version[5]), version[6] == UInt8(ascii: "."), isDigit(version[7])
        else {
            throw .malformed("The protocol version is not HTTP/1.1.")
        }
        guard version[5] == UInt8(ascii: "1") else { throw .unsupportedVersion }
        return version[7] == UInt8(ascii: "0")
    }

    /// `field-name ":" OWS field-value OWS`; no whitespace before the colon, no line folding.
    private static func splitField(_ line: UnsafeRawBufferPointer) throws(RequestRejection) -> (UnsafeRawBufferPointer, UnsafeRawBufferPointer) {
        guard let colon = line.firstIndex(of: ASCII.colon) else {
            throw ASCII.isWhitespace(line[0]) ? .malformed("Header line folding is not allowed.") : .malformed("A header line has no colon.")
        }
        let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
        guard !name.isEmpty, name.allSatisfy(ASCII.isToken) else {
            throw .malformed("A header name is empty or contains characters that are not allowed.")
        }
        let value = UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]).trimmingWhitespace()
        guard value.allSatisfy(ASCII.isFieldValue) else {
            throw .malformed("The value of header '\(String(decoding: name, as: UTF8.self))' contains control characters.")
        }
        return (name, value)
    }
}

/// Splits a head into lines ending in LF (an optional CR before it is dropped); a bare CR is malformed.
struct LineIterator {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    mutating func next() throws(RequestRejection) -> UnsafeRawBufferPointer? {
        guard position < bytes.count, let newline = bytes.firstIndex(of: ASCII.lf, from: position) else { return nil }
        var end = newline
        if end > position, bytes[end - 1] == ASCII.cr { end -= 1 }
        let line = UnsafeRawBufferPointer(rebasing: bytes[position..<end])
        position = newline + 1
        if line.contains(ASCII.cr) { throw .malformed("A line contains a carriage return that does not end it.") }
        return line
    }
}
