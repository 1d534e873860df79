import Foundation

/// The head of an upstream's response, as it arrived.
struct UpstreamResponseHead: Equatable, Sendable {
    var status: Int
    /// The header lines in wire order, repeats kept; values without surrounding whitespace.
    var headers: HTTPHeaders
    /// Whether the upstream lets the connection carry another request after this response.
    var keepsAlive: Bool
}

/// Why an upstream's answer could not be read: one sentence.
struct UpstreamResponseError: Error, Equatable {
    let message: String
}

/// Reads one HTTP/1.1 response (RFC 9112) from the bytes of an upstream connection, incrementally: the
/// head, then the body in the pieces the bytes allow, whatever the framing (`Content-Length`, chunked, or
/// until the upstream closes). Interim 1xx answers are skipped. No I/O: the connection feeds it.
struct UpstreamResponseReader {
    /// What ``next()`` found.
    enum Step: Equatable {
        /// Nothing more until more bytes arrive (or the end of input).
        case needsMore
        /// The final response's head; its body follows.
        case head(UpstreamResponseHead)
        /// The next piece of the body (never empty), its transfer framing removed.
        case body(Data)
        /// The response is complete. `reusable`: the connection may carry another request.
        case end(reusable: Bool)
    }

    private enum Framing {
        case length(remaining: Int)
        case chunked(ChunkedBodyDecoder)
        case untilClose

        var isUntilClose: Bool {
            if case .untilClose = self { return true }
            return false
        }
    }

    private enum State {
        case head
        case body(Framing, keepsAlive: Bool)
        case ended
        /// Fails at the next step, after the body piece that preceded the flaw.
        case failed(UpstreamResponseError)
    }

    /// The largest head accepted; a larger one is an error rather than unbounded buffering.
    static let maxHeadBytes = 64 * 1024
    /// Chunked framing through the request decoder, without its request-sized body limit.
    private static let limits = ParserLimits(
        maxRequestLineLength: maxHeadBytes, maxHeaderBytes: maxHeadBytes,
        maxHeaderCount: .max, maxBodyBytes: .max, maxChunkLineLength: 4096)

    /// False for the answer to `HEAD`, which has no body.
    let expectsBody: Bool
    private var buffer: [UInt8] = []
    private var position = 0
    /// Where the search for the end of the head resumes.
    private var scanned = 0
    private var inputEnded = false
    private var state = State.head

    /// A reader for the answer to a request; `expectsBody` is false for `HEAD`, whose answer has no body.
    init(expectsBody: Bool) {
        self.expectsBody = expectsBody
    }

    /// Whether any byte of the answer has arrived.
    private(set) var receivedAny = false

    /// How many bytes the reader holds, read or not: bounded however long the answer.
    var bufferedByteCount: Int { buffer.count }

    /// Adds bytes that arrived.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        receivedAny = true
        // Drops what was read, when that is all or enough to be worth moving the rest.
        if position > 0, position == buffer.count || position >= 64 * 1024 {
            buffer.removeFirst(position)
            scanned = max(0, scanned - position)
            position = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Notes that the upstream closed its side: a body framed by the close ends here; any other unfinished
    /// answer is cut.
    mutating func endOfInput() {
        inputEnded = true
    }

    /// The next step the bytes so far allow.
    /// - Throws: ``UpstreamResponseError`` when the answer is not valid HTTP/1.1, or ends early.
    mutating func next() throws(UpstreamResponseError) -> Step {
        switch state {
        case .ended:
            return .needsMore
        case .failed(let error):
            throw error
        case .head:
            guard let head = try readHead() else {
                if inputEnded {
                    throw UpstreamResponseError(
                        message: receivedAny
                            ? "The upstream closed the connection in the middle of its answer's head."
                            : "The upstream closed the connection without answering.")
                }
                return .needsMore
            }
            return .head(head)
        case .body(.length(let remaining), let keepsAlive):
            if remaining == 0 { return end(reusable: keepsAlive) }
            let take = min(remaining, buffer.count - position)
            guard take > 0 else {
                if inputEnded {
                    throw UpstreamResponseError(message: "The upstream closed the connection \(remaining) bytes before the end of its answer's body.")
                }
                return .needsMore
            }
            let piece = Data(buffer[position..<(position + take)])
            position += take
            state = .body(.length(remaining: remaining - take), keepsAlive: keepsAlive)
            return .body(piece)
        case .body(.chunked(var decoder), let keepsAlive):
            var piece = Data()
            let (consumed, outcome) = buffer.withUnsafeBytes { raw in
                decoder.decode(UnsafeRawBufferPointer(rebasing: raw[position...]), into: &piece, limits: Self.limits)
            }
            position += consumed
            state = .body(.chunked(decoder), keepsAlive: keepsAlive)
            if case .rejected(let rejection) = outcome {
                let error = UpstreamResponseError(message: "The upstream's chunked body is malformed: \(rejection.reason)")
                // The data before the flaw first, as when a read had ended just before it.
                guard piece.isEmpty else {
                    state = .failed(error)
                    return .body(piece)
                }
                throw error
            }
            if !piece.isEmpty { return .body(piece) }
            if outcome == .complete { return end(reusable: keepsAlive) }
            if inputEnded { throw UpstreamResponseError(message: "The upstream closed the connection in the middle of its chunked body.") }
            return .needsMore
        case .body(.untilClose, _):
            if position < buffer.count {
                let piece = Data(buffer[position...])
                position = buffer.count
                return .body(piece)
            }
            return inputEnded ? end(reusable: false) : .needsMore
        }
    }

    /// Ends the response; bytes beyond it (which no request asked for) make the connection unusable.
    private mutating func end(reusable: Bool) -> Step {
        state = .ended
        return .end(reusable: reusable && position == buffer.count && !inputEnded)
    }

    /// Parses the head once it is complete, skipping interim answers; `nil` while it is incomplete.
    private mutating func readHead() throws(UpstreamResponseError) -> UpstreamResponseHead? {
        while true {
            guard let end = headEnd() else {
                if buffer.count - position > Self.maxHeadBytes { throw Self.headTooLarge }
                return nil
            }
            // Checked on the whole head too, so that where the reads cut it never decides.
            guard end.bodyStart - position <= Self.maxHeadBytes else { throw Self.headTooLarge }
            let lines = buffer[position..<end.headEnd]
            position = end.bodyStart
            scanned = position
            let parsed = try Self.parseHead(lines)
            if parsed.status >= 100, parsed.status < 200, parsed.status != 101 { continue }  // interim: 100 Continue, 103 Early Hints
            let framing = try framing(of: parsed)
            state = .body(framing, keepsAlive: parsed.keepsAlive && !(framing.isUntilClose))
            return parsed
        }
    }

    private static let headTooLarge = UpstreamResponseError(message: "The upstream's answer has a head larger than \(maxHeadBytes) bytes.")

    /// The end of the head (the blank line, CRLF or bare LF) if it has arrived: where the lines end and
    /// where the body starts.
    private mutating func headEnd() -> (headEnd: Int, bodyStart: Int)? {
        var index = max(scanned, position)
        while index < buffer.count {
            if buffer[index] == ASCII.lf {
                // A line feed followed by an empty line: LF LF or LF CR LF.
                if index + 1 < buffer.count, buffer[index + 1] == ASCII.lf { return (index + 1, index + 2) }
                if index + 2 < buffer.count, buffer[index + 1] == ASCII.cr, buffer[index + 2] == ASCII.lf { return (index + 1, index + 3) }
                if index + 2 >= buffer.count { break }  // the blank line may still be arriving
            }
            index += 1
        }
        scanned = max(position, index - 1)
        return nil
    }

    /// The status line and header lines (each ended by LF, with an optional CR before it).
    static func parseHead(_ bytes: ArraySlice<UInt8>) throws(UpstreamResponseError) -> UpstreamResponseHead {
        var lines = bytes.split(separator: ASCII.lf, omittingEmptySubsequences: false).map { line in
            line.last == ASCII.cr ? line.dropLast() : line
        }
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard let statusLine = lines.first else { throw UpstreamResponseError(message: "The upstream's answer has no status line.") }
        let (status, minorVersion) = try parseStatusLine(statusLine)
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let first = line.first, !ASCII.isWhitespace(first) else {
                throw UpstreamResponseError(message: "The upstream's answer folds a header line, which HTTP/1.1 no longer allows.")
            }
            guard let colon = line.firstIndex(of: ASCII.colon), colon > line.startIndex,
                line[..<colon].allSatisfy(ASCII.isToken)
            else {
                throw UpstreamResponseError(message: "The upstream's answer has a malformed header line.")
            }
            var value = line[(colon + 1)...]
            while let byte = value.first, ASCII.isWhitespace(byte) { value = value.dropFirst() }
            while let byte = value.last, ASCII.isWhitespace(byte) { value = value.dropLast() }
            headers.add(name: String(decoding: line[..<colon], as: UTF8.self), value: String(decoding: value, as: UTF8.self))
        }
        let connection = headers.values(for: "Connection").flatMap { $0.split(separator: ",") }.map { $0.trimmingHTTPWhitespace().lowercased() }
        let keepsAlive = minorVersion >= 1 ? !connection.contains("close") : connection.contains("keep-alive")
        return UpstreamResponseHead(status: status, headers: headers, keepsAlive: keepsAlive)
    }

    /// `HTTP/1.x SP 3DIGIT [SP reason]`: the status and the minor version.
    private static func parseStatusLine(_ line: ArraySlice<UInt8>) throws(UpstreamResponseError) -> (status: Int, minorVersion: Int) {
        let bytes = Array(line)
        let prefix = Array("HTTP/1.".utf8)
        guard bytes.count >= 12, bytes.starts(with: prefix), let minor = ASCII.hexValue(bytes[7]), minor <= 9,
            bytes[8] == ASCII.space, bytes.count == 12 || bytes[12] == ASCII.space,
            bytes[9..<12].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else {
            throw UpstreamResponseError(message: "The upstream's answer does not start with an HTTP/1.x status line.")
        }
        let status = bytes[9..<12].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard status >= 100 else { throw UpstreamResponseError(message: "The upstream answered with status \(status), which does not exist.") }
        return (status, minor)
    }

    /// How the body of `head` is delimited (RFC 9112 §6.3).
    private func framing(of head: UpstreamResponseHead) throws(UpstreamResponseError) -> Framing {
        if !expectsBody || head.status == 204 || head.status == 304 || head.status == 101 { return .length(remaining: 0) }
        let transferCodings = head.headers.values(for: "Transfer-Encoding").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingHTTPWhitespace().lowercased() }
        if !transferCodings.isEmpty {
            return transferCodings.last == "chunked" ? .chunked(ChunkedBodyDecoder()) : .untilClose
        }
        guard let length = try Self.contentLength(in: head.headers) else { return .untilClose }
        return .length(remaining: length)
    }

    /// The body length `headers` declare with `Content-Length` (repeated or listed values must agree), or
    /// `nil` when they declare none. Whether the length frames the body (not with `Transfer-Encoding`, nor
    /// for `HEAD`, 1xx, 204 and 304) is the caller's question.
    /// - Throws: ``UpstreamResponseError`` when a value is not a number or the values disagree.
    static func contentLength(in headers: HTTPHeaders) throws(UpstreamResponseError) -> Int? {
        let lengths = headers.values(for: "Content-Length").flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingHTTPWhitespace() }
        guard let first = lengths.first else { return nil }
        guard first.utf8.count <= 18, first.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let length = Int(first), lengths.allSatisfy({ $0 == first })
        else {
            throw UpstreamResponseError(message: "The upstream's answer has an invalid Content-Length.")
        }
        return length
    }
}
