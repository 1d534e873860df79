import Foundation
@testable import MockServer
@testable import MockServerWire
import Testing

/// ``LiveStream`` with a declared length on the wire: `Content-Length` instead of chunks, the connection kept
/// when the body came whole, cut when it did not.
@Suite struct LiveStreamDeclaredLengthTests {
    static let request = "GET /file HTTP/1.1\r\nHost: x\r\n\r\n"

    /// Answers every request with a live stream of declared length 10, given `pieces`, then `ending`.
    static func answering(_ pieces: [String], then ending: HTTPStream.Ending = .complete) -> @Sendable (HTTPRequest) -> HTTPReply {
        { _ in
            let stream = LiveStream(
                head: HTTPResponse(status: 200, headers: ["Content-Type": "text/plain", "Transfer-Encoding": "chunked"]), declaredLength: 10)
            for piece in pieces { stream.send(Data(piece.utf8)) }
            stream.finish(ending)
            return .live(stream)
        }
    }

    @Test func wholeBody_isSentUnderItsLength_andKeepsTheConnection() async throws {
        try await withServer(respond: Self.answering(["01234", "56789"])) { _, url in
            let client = try RawHTTPClient(url)
            defer { client.close() }
            try client.send(Self.request + Self.request)
            for _ in 1...2 {
                let response = try await client.readResponse()
                #expect(response.headers["Content-Length"] == "10")
                #expect(response.headers["Transfer-Encoding"] == nil)
                #expect(response.headers["Connection"] == nil)
                #expect(response.bodyText == "0123456789")
            }
        }
    }

    @Test func bytesBeyondTheLength_areNotSent() async throws {
        try await withServer(respond: Self.answering(["0123456789AB"])) { _, url in
            let client = try RawHTTPClient(url)
            defer { client.close() }
            try client.send(Self.request + Self.request)
            // Each answer is read where its length ends: the extra bytes never open the next one
            #expect(try await client.readResponse().bodyText == "0123456789")
            let second = try await client.readResponse()
            #expect(second.status == 200)
            #expect(second.bodyText == "0123456789")
        }
    }

    @Test(arguments: [HTTPStream.Ending.complete, .cut])
    func shortBody_isCut_whateverTheEnding(_ ending: HTTPStream.Ending) async throws {
        try await withServer(respond: Self.answering(["01234"], then: ending)) { _, url in
            let client = try RawHTTPClient(url)
            defer { client.close() }
            try client.send(Self.request)
            let (bytes, end) = await client.readToEnd()
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.contains("\r\nContent-Length: 10\r\n"))
            #expect(text.hasSuffix("\r\n\r\n01234"))
            #expect(end == .closed)
        }
    }
}
