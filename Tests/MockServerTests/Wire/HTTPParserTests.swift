import Foundation
@testable import MockServer
@testable import MockServerWire
import Testing

/// The request parser on its own: head scanning and parsing, framing rules, and chunked decoding.
@Suite struct HTTPParserTests {
    private static let limits = ParserLimits(maxRequestLineLength: 64, maxHeaderBytes: 256, maxHeaderCount: 4, maxBodyBytes: 100)

    /// Scans and parses `text` as one request head, the way a connection does.
    private func parse(_ text: String, limits: ParserLimits = Self.limits) -> Result<RequestHead, RequestRejection> {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { raw in
            var scanner = RequestHeadScanner()
            switch scanner.scan(raw, limits: limits) {
            case .incomplete:
                return .failure(RequestRejection(status: 0, reason: "incomplete"))
            case .rejected(let rejection):
                return .failure(rejection)
            case .complete(let start, let end):
                do throws(RequestRejection) {
                    return .success(try RequestHeadParser.parse(UnsafeRawBufferPointer(rebasing: raw[start..<end]), limits: limits))
                } catch {
                    return .failure(error)
                }
            }
        }
    }

    @Test func parse_readsRequestLineHeadersAndFraming() throws {
        // Given a POST with a body length, when parsed
        let head = try parse("POST /users?since=5 HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\nX-Empty:\r\n\r\n").get()
        // Then every part is kept as sent
        #expect(head.request.method == "POST")
        #expect(head.request.target == "/users?since=5")
        #expect(head.request.version == "HTTP/1.1")
        #expect(
            head.request.headers.lines == [
                HTTPHeader(name: "Host", value: "x"), HTTPHeader(name: "Content-Length", value: "12"), HTTPHeader(name: "X-Empty", value: ""),
            ])
        #expect(head.framing == .length(12))
        #expect(head.wantsKeepAlive)
        #expect(!head.isHEAD)
    }

    @Test func parse_acceptsBareLineFeedsAndLeadingEmptyLines() throws {
        let head = try parse("\r\n\nGET / HTTP/1.1\nA:  b  \n\n").get()
        #expect(head.request.target == "/")
        #expect(head.request.headers["a"] == "b")
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\r\n\r\n", true),
        ("GET / HTTP/1.1\r\nConnection: close\r\n\r\n", false),
        ("GET / HTTP/1.1\r\nConnection: Upgrade, CLOSE\r\n\r\n", false),
        ("GET / HTTP/1.0\r\n\r\n", false),
        ("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true),
        ("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\nConnection: close\r\n\r\n", false),
    ])
    func keepAlive_followsVersionAndConnectionTokens(request: String, keepAlive: Bool) throws {
        #expect(try parse(request).get().wantsKeepAlive == keepAlive)
    }

    @Test(arguments: [
        ("Content-Length: 5", BodyFraming.length(5)),
        ("Content-Length: 5, 5", .length(5)),
        ("Content-Length: 0", .none),
        ("Transfer-Encoding: chunked", .chunked),
        ("Transfer-Encoding: CHUNKED", .chunked),
    ])
    func framing_isReadFromTheHeaders(header: String, framing: BodyFraming) throws {
        #expect(try parse("POST / HTTP/1.1\r\n\(header)\r\n\r\n").get().framing == framing)
    }

    @Test(arguments: [
        ("GET /\r\n\r\n", 400),
        ("GET  / HTTP/1.1\r\n\r\n", 400),
        ("GET / HTTP/1.1 \r\n\r\n", 400),
        ("G(T / HTTP/1.1\r\n\r\n", 400),
        ("GET /a\u{7F} HTTP/1.1\r\n\r\n", 400),
        ("GET / HTTPS/1.1\r\n\r\n", 400),
        ("GET / HTTP/2.0\r\n\r\n", 505),
        ("GET / HTTP/1.1\r\nNoColon\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nBad Name: v\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\n: v\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nA: b\u{01}c\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nA: b\rc\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nContent-Length:\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nContent-Length: 5, 6\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n", 400),
        ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nContent-Length: 101\r\n\r\n", 413),
        ("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
        ("GET /\(String(repeating: "a", count: 80)) HTTP/1.1\r\n\r\n", 431),
        ("GET / HTTP/1.1\r\nA: \(String(repeating: "a", count: 300))\r\n\r\n", 431),
        ("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\n\r\n", 431),
    ])
    func malformedOrOversizedHeads_areRejectedWithTheirStatus(request: String, status: Int) {
        guard case .failure(let rejection) = parse(request) else {
            Issue.record("accepted: \(request.debugDescription)")
            return
        }
        #expect(rejection.status == status, "\(request.debugDescription): \(rejection.reason)")
    }

    @Test func scanner_rejectsAnOverlongRequestLineBeforeItEnds() {
        // Given a request line that never ends, when only part of it has arrived
        let bytes = Array(("GET /" + String(repeating: "a", count: 100)).utf8)
        var scanner = RequestHeadScanner()
        let outcome = bytes.withUnsafeBytes { scanner.scan($0, limits: Self.limits) }
        // Then the limit already applies
        guard case .rejected(let rejection) = outcome else {
            Issue.record("not rejected: \(outcome)")
            return
        }
        #expect(rejection.status == 431)
    }

    @Test func scanner_resumesAcrossPartialReads() {
        // Given a head delivered one byte at a time
        let text = Array("GET /x HTTP/1.1\r\nA: b\r\n\r\nNEXT".utf8)
        var scanner = RequestHeadScanner()
        var completedAt: Int?
        for length in 1...text.count where completedAt == nil {
            let outcome = text.withUnsafeBytes { scanner.scan(UnsafeRawBufferPointer(rebasing: $0[..<length]), limits: Self.limits) }
            if case .complete(let start, let end) = outcome {
                #expect(start == 0)
                completedAt = end
            }
        }
        // Then it completes exactly after the empty line
        #expect(completedAt == text.count - 4)
    }

    /// Found by the RequestStream fuzz target: a request line of exactly the limit was refused as too long when
    /// its CR arrived without its LF, and judged whole otherwise; likewise a head that reached the header limit
    /// just before its ending empty line. Scanned with every prefix, the outcome is the one of the whole head.
    @Test(arguments: [
        ("GET /\(String(repeating: "a", count: 50)) HTTP/1.1\r\n\r\n", "complete"),
        ("GET /\(String(repeating: "a", count: 51)) HTTP/1.1\r\n\r\n", "rejected 431"),
        ("GET / HTTP/1.1\r\nA: \(String(repeating: "b", count: 235))\r\n\r\n", "complete"),
        ("GET / HTTP/1.1\r\nA: \(String(repeating: "b", count: 236))\r\n\r\n", "rejected 431"),
    ])
    func scanner_outcomeDoesNotDependOnWhereTheReadsEnd(text: String, expected: String) {
        let bytes = Array(text.utf8)
        for length in 1...bytes.count {
            // A connection rescans from the same scanner as more bytes arrive; here the first read ends at `length`.
            var scanner = RequestHeadScanner()
            var outcome = bytes.withUnsafeBytes { scanner.scan(UnsafeRawBufferPointer(rebasing: $0[..<length]), limits: Self.limits) }
            if outcome == .incomplete {
                outcome = bytes.withUnsafeBytes { scanner.scan($0, limits: Self.limits) }
            }
            let seen =
                switch outcome {
                case .complete: "complete"
                case .incomplete: "incomplete"
                case .rejected(let rejection): "rejected \(rejection.status)"
                }
            #expect(seen == expected, "first read of \(length) bytes")
        }
    }

    @Test func expect_continueIsRecognisedOnlyForHTTP11() throws {
        #expect(try parse("POST / HTTP/1.1\r\nExpect: 100-Continue\r\nContent-Length: 3\r\n\r\n").get().expectsContinue)
        #expect(try !parse("POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n").get().expectsContinue)
        #expect(try parse("POST / HTTP/1.1\r\nExpect: something\r\n\r\n").get().hasUnsupportedExpectation)
    }

    // MARK: - Chunked bodies

    /// Decodes `text` fed in pieces of `step` bytes, keeping unconsumed bytes for the next piece.
    private func decodeChunked(
        _ text: String, step: Int, limits: ParserLimits = HTTPParserTests.limits
    )
        -> (body: String, outcome: ChunkedBodyDecoder.Progress, leftover: Int)
    {
        let bytes = Array(text.utf8)
        var decoder = ChunkedBodyDecoder()
        var body = Data()
        var pending: [UInt8] = []
        var offset = 0
        var outcome = ChunkedBodyDecoder.Progress.needsMore
        while offset < bytes.count, outcome == .needsMore {
            let end = min(offset + step, bytes.count)
            pending += bytes[offset..<end]
            offset = end
            let (consumed, result) = pending.withUnsafeBytes { decoder.decode($0, into: &body, limits: limits) }
            pending.removeFirst(consumed)
            outcome = result
        }
        return (String(decoding: body, as: UTF8.self), outcome, pending.count + bytes.count - offset)
    }

    @Test(arguments: [1, 2, 7, 1000])
    func chunked_decodesAcrossAnySplit(step: Int) {
        let result = decodeChunked("5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nX-Trailer: t\r\n\r\nGET", step: step)
        #expect(result.body == "hello world")
        #expect(result.outcome == .complete)
        #expect(result.leftover == 3)
    }

    /// Found by the ChunkedBody fuzz target: a chunk-size line over the limit was refused as too long when
    /// it arrived in pieces but judged on its content when whole, and a lone CR after trailers that filled
    /// the limit was refused although a LF could still make it the ending empty line.
    @Test(arguments: [
        ("a;name=value;x\u{01}xxxxxxxxx\r\n0123456789\r\n0\r\n\r\n", "rejected: A chunk-size line is too long."),
        ("a;name=value;xxxxxxxxxxx\r\n0123456789\r\n0\r\n\r\n", "rejected: A chunk-size line is too long."),
        ("a;name=value;xxxxxxxx\r\n0123456789\r\n0\r\n\r\n", "complete"),
        ("0\r\nA:123456789012\r\n\r\n", "complete"),
        ("0\r\nA:1234567890123\r\n\r\n", "rejected: The trailer fields exceed the limit of 16 bytes."),
        // Exactly the limit of 24 bytes before the line feed, CR included.
        ("a;name=value;xxxxxxxxxx\r\n0123456789\r\n0\r\n\r\n", "complete"),
        // Trailers that filled the limit: one more byte that cannot begin the ending CRLF is too much at once,
        // and so is a CR followed by anything but LF, and a field that has no room left for its line feed.
        ("0\r\nA:123456789012\r\nX", "rejected: The trailer fields exceed the limit of 16 bytes."),
        ("0\r\nA:123456789012\r\n\r\r", "rejected: The trailer fields exceed the limit of 16 bytes."),
        ("0\r\nA:12345678901234", "rejected: The trailer fields exceed the limit of 16 bytes."),
        // The limit is on the trailer section, not on each field.
        ("0\r\nA:1234567\r\nB:1234567\r\n\r\n", "rejected: The trailer fields exceed the limit of 16 bytes."),
    ])
    func chunked_outcomeDoesNotDependOnHowTheReadsAreCut(text: String, expected: String) {
        let tight = ParserLimits(maxRequestLineLength: 64, maxHeaderBytes: 16, maxHeaderCount: 8, maxBodyBytes: 256, maxChunkLineLength: 24)
        for step in 1...text.utf8.count {
            let outcome = decodeChunked(text, step: step, limits: tight).outcome
            let seen =
                switch outcome {
                case .complete: "complete"
                case .needsMore: "needs more"
                case .rejected(let rejection): "rejected: \(rejection.reason)"
                }
            #expect(seen == expected, "reads of \(step) bytes")
        }
    }

    /// RFC 9112 §2.2 lets a recipient take a bare LF as a line terminator; the chunked coding's lines too.
    @Test(arguments: [1, 1000])
    func chunked_acceptsBareLineFeeds(step: Int) {
        let result = decodeChunked("5\nhello\n0\n\nGET", step: step)
        #expect(result.body == "hello")
        #expect(result.outcome == .complete)
        #expect(result.leftover == 3)
    }

    /// The chunk size is hexadecimal of any number of digits up to 15 (leading zeros count: more could
    /// overflow), and a CRLF after the data is consumed as soon as it is whole.
    @Test func chunked_multiDigitSizes_upToFifteenDigits() {
        let sixteen = "0123456789abcdef"
        let ok = decodeChunked(
            "10\r\n\(sixteen)\r\n00000000000000a\r\n0123456789\r\n", step: 1000,
            limits: ParserLimits(maxRequestLineLength: 64, maxHeaderBytes: 256, maxHeaderCount: 4, maxBodyBytes: 100))
        #expect(ok.body == sixteen + "0123456789")
        #expect(ok.outcome == .needsMore)
        #expect(ok.leftover == 0)
        let tooMany = decodeChunked("000000000000000a\r\n0123456789\r\n0\r\n\r\n", step: 1000)
        #expect(tooMany.outcome == .rejected(.malformed("A chunk size is not valid hexadecimal.")))
    }

    @Test(arguments: [
        ("z\r\n", 400),
        ("5\r\nhello3\r\nabc\r\n0\r\n\r\n", 400),
        ("0\r\n:v\r\n\r\n", 400),
        ("0\r\nBad Name: v\r\n\r\n", 400),
        ("0\r\nA:\u{01}\r\n\r\n", 400),
        ("\r\n", 400),
        ("5 x\r\nhello\r\n0\r\n\r\n", 400),
        ("5\r\nhelloX\r\n0\r\n\r\n", 400),
        ("5\r\nhello\rX0\r\n\r\n", 400),
        ("0\r\nbad trailer\r\n\r\n", 400),
        ("65\r\n", 413),
        ("ffffffffffffffffffff\r\n", 400),
        ("\(String(repeating: "0", count: 5000))", 400),
    ])
    func chunked_rejectsMalformedOrOversizedBodies(text: String, status: Int) {
        guard case .rejected(let rejection) = decodeChunked(text, step: 3).outcome else {
            Issue.record("accepted: \(text.prefix(40).debugDescription)")
            return
        }
        #expect(rejection.status == status)
    }
}
