/// What the framing-relevant header fields (`Content-Length`, `Transfer-Encoding`, `Connection`,
/// `Expect`) say, gathered while the fields are parsed so no second lookup pass is needed.
struct FramingFields {
    private(set) var contentLength: Int?
    private var contentLengthOverflows = false
    private var transferCodings: [UnsafeRawBufferPointer]?
    private(set) var closeToken = false
    private(set) var keepAliveToken = false
    private(set) var expectsContinue = false
    private(set) var unsupportedExpectation = false

    /// Records one field; throws for a malformed or conflicting `Content-Length`.
    mutating func note(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws(RequestRejection) {
        switch name.count {
        case 14 where ASCII.equalsIgnoringCase(name, "content-length"):
            try noteContentLength(value)
        case 17 where ASCII.equalsIgnoringCase(name, "transfer-encoding"):
            var codings = transferCodings ?? []
            Self.forEachToken(in: value) { codings.append($0) }
            transferCodings = codings
        case 10 where ASCII.equalsIgnoringCase(name, "connection"):
            Self.forEachToken(in: value) { token in
                if ASCII.equalsIgnoringCase(token, "close") { closeToken = true }
                if ASCII.equalsIgnoringCase(token, "keep-alive") { keepAliveToken = true }
            }
        case 6 where ASCII.equalsIgnoringCase(name, "expect"):
            if ASCII.equalsIgnoringCase(value, "100-continue") { expectsContinue = true } else { unsupportedExpectation = true }
        default:
            break
        }
    }

    /// The body framing these fields describe (RFC 9112 §6.3), or the reason they are unacceptable.
    func framing(isHTTP10: Bool, limits: ParserLimits) throws(RequestRejection) -> BodyFraming {
        if let codings = transferCodings {
            guard contentLength == nil, !contentLengthOverflows else {
                throw .malformed("The request has both Content-Length and Transfer-Encoding.")
            }
            guard !isHTTP10 else { throw .malformed("Transfer-Encoding is not allowed in an HTTP/1.0 request.") }
            guard codings.count == 1, ASCII.equalsIgnoringCase(codings[0], "chunked") else {
                throw .malformed("The only supported Transfer-Encoding is chunked.")
            }
            return .chunked
        }
        if contentLengthOverflows { throw .bodyTooLarge(limit: limits.maxBodyBytes) }
        guard let length = contentLength else { return .none }
        guard length <= limits.maxBodyBytes else { throw .bodyTooLarge(limit: limits.maxBodyBytes) }
        return length == 0 ? .none : .length(length)
    }

    /// A `Content-Length` may repeat (as a list or as several fields) only with one identical value.
    private mutating func noteContentLength(_ value: UnsafeRawBufferPointer) throws(RequestRejection) {
        var elements = 0
        var failure: RequestRejection?
        Self.forEachToken(in: value, keepingEmpty: true) { element in
            elements += 1
            guard failure == nil else { return }
            guard !element.isEmpty, element.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                failure = .malformed("The Content-Length is not a number.")
                return
            }
            // 18 digits always fit in an Int; anything longer is far beyond any body limit.
            guard element.count <= 18 else {
                contentLengthOverflows = true
                return
            }
            let number = element.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            if let previous = contentLength, previous != number {
                failure = .malformed("The request has conflicting Content-Length values.")
            }
            contentLength = number
        }
        if let failure { throw failure }
        if elements == 0 { throw .malformed("The Content-Length is empty.") }
    }

    /// Calls `body` with each comma-separated element of `value`, trimmed; empty elements are skipped
    /// unless `keepingEmpty`.
    private static func forEachToken(in value: UnsafeRawBufferPointer, keepingEmpty: Bool = false, _ body: (UnsafeRawBufferPointer) -> Void) {
        var start = 0
        while start <= value.count {
            let end = value.firstIndex(of: ASCII.comma, from: start) ?? value.count
            let element = UnsafeRawBufferPointer(rebasing: value[start..<end]).trimmingWhitespace()
            if keepingEmpty || !element.isEmpty { body(element) }
            start = end + 1
        }
    }
}
