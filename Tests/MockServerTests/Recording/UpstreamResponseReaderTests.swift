import Foundation
@testable import MockServer
import Testing

/// Reading an upstream's answer from the bytes of its connection, whatever the framing and wherever the
/// reads happen to cut it.
@Suite struct UpstreamResponseReaderTests {
    /// What a whole answer reads as: its head, its body and whether the connection may be reused.
    struct Read: Equatable {
        var status: Int
        var headers: [String]
        var body: Data
        var reusable: Bool
    }

    /// Reads `wire` in reads of `size` bytes (the whole at once when `nil`), then ends the input if
    /// `closes`.
    static func read(_ wire: String, expectsBody: Bool = true, size: Int? = nil, closes: Bool = false) throws(UpstreamResponseError) -> Read? {
        var reader = UpstreamResponseReader(expectsBody: expectsBody)
        let bytes = Array(wire.utf8)
        var head: UpstreamResponseHead?
        var body = Data()
        func drain() throws(UpstreamResponseError) -> Bool? {
            while true {
                switch try reader.next() {
                case .needsMore: return nil
                case .head(let value): head = value
                case .body(let piece): body.append(piece)
                case .end(let reusable): return reusable
                }
            }
        }
        func finished(_ reusable: Bool) -> Read? {
            head.map { Read(status: $0.status, headers: $0.headers.lines.map { "\($0.name): \($0.value)" }, body: body, reusable: reusable) }
        }
        var start = 0
        repeat {
            let end = min(bytes.count, start + (size ?? bytes.count))
            bytes[start..<end].withUnsafeBytes { reader.append($0) }
            start = end
            if let reusable = try drain() { return finished(reusable) }
        } while start < bytes.count
        guard closes else { return nil }
        reader.endOfInput()
        return try drain().flatMap(finished)
    }

    struct Framed: Sendable, CustomTestStringConvertible {
        let name: String
        let wire: String
        let expectsBody: Bool
        let closes: Bool
        let body: String
        let reusable: Bool
        var testDescription: String { name }
    }

    static let framings = [
        Framed(
            name: "Content-Length", wire: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", expectsBody: true, closes: false, body: "hello", reusable: true),
        Framed(
            name: "chunked with an extension and a trailer",
            wire: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=1\r\nhel\r\n2\r\nlo\r\n0\r\nT: 1\r\n\r\n",
            expectsBody: true, closes: false, body: "hello", reusable: true),
        Framed(
            name: "until the close", wire: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhello", expectsBody: true, closes: true, body: "hello",
            reusable: false),
        Framed(
            name: "a transfer coding other than chunked, until the close", wire: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nhello",
            expectsBody: true, closes: true, body: "hello", reusable: false),
        Framed(
            name: "HEAD: the length is the resource's", wire: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", expectsBody: false, closes: false, body: "",
            reusable: true),
        Framed(name: "204", wire: "HTTP/1.1 204 No Content\r\n\r\n", expectsBody: true, closes: false, body: "", reusable: true),
        Framed(
            name: "304 with a length", wire: "HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n", expectsBody: true, closes: false, body: "",
            reusable: true),
        Framed(
            name: "interim answers skipped",
            wire: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok",
            expectsBody: true, closes: false, body: "ok", reusable: true),
        Framed(name: "bare line feeds", wire: "HTTP/1.1 200 OK\nContent-Length: 2\n\nok", expectsBody: true, closes: false, body: "ok", reusable: true),
        Framed(
            name: "Connection: close", wire: "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok", expectsBody: true, closes: false,
            body: "ok", reusable: false),
        Framed(name: "HTTP/1.0", wire: "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", expectsBody: true, closes: false, body: "ok", reusable: false),
        Framed(
            name: "HTTP/1.0 keep-alive", wire: "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\nok", expectsBody: true, closes: false,
            body: "ok", reusable: true),
        Framed(
            name: "bytes beyond the answer", wire: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1", expectsBody: true, closes: false, body: "ok",
            reusable: false),
    ]

    @Test(arguments: framings)
    func everyFraming_givesTheBody_wholeOrInReadsOfAnySize(_ framed: Framed) throws {
        for size in [nil, 1, 2, 3, 7] {
            let read = try #require(try Self.read(framed.wire, expectsBody: framed.expectsBody, size: size, closes: framed.closes), "reads of \(size ?? 0)")
            #expect(read.body == Data(framed.body.utf8), "reads of \(size ?? 0)")
            // Bytes beyond the answer are seen only when they arrive with it
            if framed.name != "bytes beyond the answer" || size == nil {
                #expect(read.reusable == framed.reusable, "reads of \(size ?? 0)")
            }
        }
    }

    @Test func headerLines_keepTheirOrderRepeatsAndCase_withoutSurroundingWhitespace() throws {
        let read = try #require(try Self.read("HTTP/1.1 200 OK\r\nset-cookie: a=1\r\nX-B:\t 2 \r\nSet-Cookie: b=2\r\nEmpty:\r\nContent-Length: 0\r\n\r\n"))
        #expect(read.headers == ["set-cookie: a=1", "X-B: 2", "Set-Cookie: b=2", "Empty: ", "Content-Length: 0"])
        #expect(read.status == 200)
    }

    @Test func statusLine_withoutAReason_isRead() throws {
        #expect(try Self.read("HTTP/1.1 404\r\nContent-Length: 0\r\n\r\n")?.status == 404)
    }

    @Test(arguments: [
        ("HTTP/2 200 OK\r\n\r\n", "The upstream's answer does not start with an HTTP/1.x status line."),
        ("HTTP/1.1 20 OK\r\n\r\n", "The upstream's answer does not start with an HTTP/1.x status line."),
        ("HTTP/1.1 099 Odd\r\n\r\n", "The upstream answered with status 99, which does not exist."),
        ("HTTP/1.1 200 OK\r\nX: 1\r\n folded\r\n\r\n", "The upstream's answer folds a header line, which HTTP/1.1 no longer allows."),
        ("HTTP/1.1 200 OK\r\nNo colon\r\n\r\n", "The upstream's answer has a malformed header line."),
        ("HTTP/1.1 200 OK\r\nContent-Length: 2, 3\r\n\r\nok", "The upstream's answer has an invalid Content-Length."),
        ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "The upstream's answer has an invalid Content-Length."),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "The upstream's chunked body is malformed: A chunk size is not valid hexadecimal."),
    ])
    func malformedAnswers_failWithOneSentence(wire: String, message: String) {
        #expect(throws: UpstreamResponseError(message: message)) { try Self.read(wire, closes: true) }
    }

    /// Found by fuzzing: read whole, a chunked body flawed after its first chunk failed without the chunk,
    /// while read in pieces it gave the chunk first.
    @Test func theDataBeforeAFlaw_comesFirst_wholeOrInReads() throws {
        var reader = UpstreamResponseReader(expectsBody: true)
        Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhel\r\n\n0\r\n\r\n".utf8).withUnsafeBytes { reader.append($0) }
        guard case .head = try reader.next() else { Issue.record("no head"); return }
        #expect(try reader.next() == .body(Data("hel".utf8)))
        let error = UpstreamResponseError(message: "The upstream's chunked body is malformed: A chunk size is not valid hexadecimal.")
        #expect(throws: error) { try reader.next() }
        #expect(throws: error) { try reader.next() }
    }

    @Test(arguments: [
        ("", "The upstream closed the connection without answering."),
        ("HTTP/1.1 200 OK\r\nContent-Le", "The upstream closed the connection in the middle of its answer's head."),
        ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel", "The upstream closed the connection 2 bytes before the end of its answer's body."),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel", "The upstream closed the connection in the middle of its chunked body."),
    ])
    func anAnswerCutByTheClose_failsSayingWhere(wire: String, message: String) {
        #expect(throws: UpstreamResponseError(message: message)) { try Self.read(wire, closes: true) }
    }

    @Test func aHeadLargerThanTheLimit_fails_withoutWaitingForItsEnd_orWhenItArrivesWhole() {
        let wire = "HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: UpstreamResponseReader.maxHeadBytes) + "\r\n"
        for (text, size) in [(wire, 1000), (wire + "\r\n", nil)] {
            #expect(throws: UpstreamResponseError(message: "The upstream's answer has a head larger than 65536 bytes.")) { try Self.read(text, size: size) }
        }
    }

    @Test func aLongChunkedStream_doesNotKeepWhatWasRead() throws {
        var reader = UpstreamResponseReader(expectsBody: true)
        Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8).withUnsafeBytes { reader.append($0) }
        guard case .head = try reader.next() else { Issue.record("no head"); return }
        var total = 0
        // Each read ends mid-line, so the buffer is never empty when the next arrives.
        for _ in 0..<20_000 {
            Array("a\r\n0123456789\r\n1".utf8).withUnsafeBytes { reader.append($0) }
            while case .body(let piece) = try reader.next() { total += piece.count }
            Array("\r\nx\r\n".utf8).withUnsafeBytes { reader.append($0) }
            while case .body(let piece) = try reader.next() { total += piece.count }
        }
        #expect(total == 20_000 * 11)
        #expect(reader.bufferedByteCount < 128 * 1024)
    }
}
