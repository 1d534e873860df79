import Foundation
@testable import MockServer
@testable import MockServerWire
import Testing

/// ``HTTPReply/stream(_:)`` on the wire: chunk framing, timing, endings.
@Suite struct StreamReplyTests {
    static let head = HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream", "Content-Length": "99"])
    static func stream(_ ending: HTTPStream.Ending = .complete, offsets: [UInt64] = [0, 0]) -> HTTPStream {
        var stream = HTTPStream(
            head: head,
            parts: offsets.enumerated().map {
                HTTPStream.Part(offset: $0.element, bytes: Data("data: \($0.offset)\n\n".utf8))
            })
        stream.ending = ending
        return stream
    }
    static let request = "GET /events HTTP/1.1\r\nHost: x\r\n\r\n"

    @Test func completeStream_isChunked_andKeepsTheConnection() async throws {
        try await withServer(respond: { _ in .stream(Self.stream()) }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send(Self.request + Self.request)
            // Each part is one chunk; the recorded Content-Length is not sent
            let first = try await client.readResponse()
            #expect(first.headers["Transfer-Encoding"] == "chunked")
            #expect(first.headers["Content-Length"] == nil)
            #expect(first.bodyText == "data: 0\n\ndata: 1\n\n")
            // The second request on the same connection is answered too
            #expect(try await client.readResponse().bodyText == "data: 0\n\ndata: 1\n\n")
        }
    }

    @Test func cutStream_closesWithoutTheLastChunk() async throws {
        try await withServer(respond: { _ in .stream(Self.stream(.cut)) }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send(Self.request)
            let (bytes, ending) = await client.readToEnd()
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(ending == .closed)
            #expect(text.hasSuffix("9\r\ndata: 1\n\n\r\n"))
            #expect(!text.contains("\r\n0\r\n\r\n"))
        }
    }

    @Test func stalledStream_sendsItsPartsThenNothing() async throws {
        try await withServer(respond: { _ in .stream(Self.stream(.stall)) }) { server, url in
            let client = try RawHTTPClient(url)
            try client.send(Self.request)
            // The head and both parts arrive, however long the server takes to send them (bounded only
            // against a hang)
            let sent = String(decoding: try await client.read(through: "9\r\ndata: 1\n\n\r\n"), as: UTF8.self)
            #expect(sent.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(sent.contains("\r\n\r\n9\r\ndata: 0\n\n\r\n9\r\ndata: 1\n\n\r\n"))
            // Then the connection stays open: the ending is applied in the turn that queued the last part, which
            // is over once the loops have run a job
            await Settled.loops()
            #expect(server.openConnectionCount == 1)
            // And nothing follows, not even the last chunk: everything the server sent comes before the end that
            // stopping it brings
            await server.stop()
            let (after, ending) = await client.readToEnd(timeout: .seconds(10))
            #expect(after.isEmpty)
            #expect(ending != .timedOut)
        }
    }

    @Test func partsAreSentNoSoonerThanTheirOffsets() async throws {
        try await withServer(respond: { _ in .stream(Self.stream(offsets: [0, 200_000_000])) }) { _, url in
            let client = try RawHTTPClient(url)
            let start = ContinuousClock.now
            try client.send(Self.request)
            #expect(try await client.readResponse().bodyText == "data: 0\n\ndata: 1\n\n")
            #expect(ContinuousClock.now - start >= .milliseconds(200))
        }
    }

    @Test func http10Client_getsTheBytesUnframed_thenClose() async throws {
        try await withServer(respond: { _ in .stream(Self.stream()) }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET /events HTTP/1.0\r\n\r\n")
            let (bytes, ending) = await client.readToEnd()
            #expect(ending == .closed)
            #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("\r\n\r\ndata: 0\n\ndata: 1\n\n"))
        }
    }
}
