import Foundation
@testable import MockServer
@testable import MockServerWire
import ServiceReplayShared
import Testing

/// Recording from an `http://` upstream over MockServer's own connections: the request goes out as the
/// client sent it, the answer's head is recorded as it arrived, and connections are kept alive.
@Suite struct LoopUpstreamClientTests {
    /// The requests an upstream received, each with its connection and its position on it.
    final class Arrivals: Sendable {
        private let arrivals = Lock<[(request: HTTPRequest, connection: UInt64, index: Int)]>([])

        func append(_ request: HTTPRequest, _ context: HTTPRequestContext) {
            arrivals.withLock { $0.append((request, context.connection.id, context.requestIndex)) }
        }

        var all: [(request: HTTPRequest, connection: UInt64, index: Int)] { arrivals.withLock { $0 } }
    }

    /// Runs `body` with an upstream answering with `respond`, and a recording server in front of it.
    func withRecordedUpstream<T>(
        _ respond: @escaping @Sendable (HTTPRequest, HTTPRequestContext) -> HTTPReply,
        _ body: (CassetteServer, URL, Arrivals) async throws -> T
    ) async throws -> T {
        let arrivals = Arrivals()
        let handler = TestHandler { request, context in
            arrivals.append(request, context)
            return respond(request, context)
        }
        return try await withServer(handler: handler) { _, upstream in
            try await withRecordingServer(upstream: upstream) { server, base in
                try await body(server, base, arrivals)
            }
        }
    }

    @Test func answerHeaders_reachTheClientAndTheCassette_inWireOrder_repeatsAndCaseKept() async throws {
        let wire = "HTTP/1.1 200 OK\r\nx-z: 1\r\nContent-Type: text/plain\r\nX-A: 2\r\nX-Z: 3\r\nContent-Length: 2\r\n\r\nok"
        try await withRecordedUpstream({ _, _ in .raw(Data(wire.utf8), then: .keepAlive) }) { server, base, _ in
            let response = try await rawExchange(base, "GET /ordered HTTP/1.1\r\nHost: localhost")
            #expect(response.body == Data("ok".utf8))
            let expected = ["x-z: 1", "Content-Type: text/plain", "X-A: 2", "X-Z: 3"]
            #expect(response.headers.lines.map { "\($0.name): \($0.value)" }.filter { !$0.hasPrefix("Content-Length") && !$0.hasPrefix("Date") } == expected)
            let recorded = try #require(server.recordedCassette?.interactions.first?.response)
            #expect(recorded.headers.lines.map { "\($0.name): \($0.value)" } == expected + ["Content-Length: 2"])
        }
    }

    @Test func theRequest_goesOutAsTheClientSentIt_withTheUpstreamsHost() async throws {
        try await withRecordedUpstream({ _, _ in .response(status: 204) }) { _, base, arrivals in
            let body = Data(#"{"b":1}"#.utf8)
            _ = try await rawExchange(
                base, "POST /items?x=1&x=2 HTTP/1.1\r\nX-First: 1\r\nHost: localhost\r\nAccept: */*\r\nx-first: 2\r\nContent-Type: application/json", body: body
            )
            let arrived = try #require(arrivals.all.first?.request)
            #expect(arrived.method == "POST")
            #expect(arrived.target == "/items?x=1&x=2")
            #expect(arrived.body == body)
            let upstreamHost = try #require(arrived.headers["Host"])
            #expect(
                arrived.headers.lines.map { "\($0.name): \($0.value)" } == [
                    "X-First: 1", "Host: \(upstreamHost)", "Accept: */*", "x-first: 2", "Content-Type: application/json", "Content-Length: 7",
                ])
            #expect(upstreamHost != "proxy")
        }
    }

    @Test func anUpstreamWithABasePath_getsTheTargetAfterIt_whileTheCassetteKeepsTheClientsTarget() async throws {
        let arrivals = Arrivals()
        let handler = TestHandler { request, context in
            arrivals.append(request, context)
            return .response(status: 204)
        }
        try await withServer(handler: handler) { _, upstream in
            try await withRecordingServer(upstream: upstream.appendingPathComponent("v1")) { server, base in
                _ = try await rawExchange(base, "GET /items?q=a%20b HTTP/1.1\r\nHost: localhost")
                #expect(arrivals.all.map(\.request.target) == ["/v1/items?q=a%20b"])
                #expect(server.recordedCassette?.interactions.map(\.request.target) == ["/items?q=a%20b"])
            }
        }
    }

    @Test func acceptEncoding_goesUpstreamLimitedToTheCodingsDecodedHere_andIsRecordedAsSent() async throws {
        try await withRecordedUpstream({ _, _ in .response(status: 204) }) { server, base, arrivals in
            let sent = "br;q=1.0, gzip;q=0.8, zstd, *;q=0.1, identity, x-gzip"
            _ = try await rawExchange(base, "GET /a HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: \(sent)")
            _ = try await rawExchange(base, "GET /b HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: br")
            #expect(arrivals.all.map { $0.request.headers.values(for: "Accept-Encoding") } == [["gzip;q=0.8, identity, x-gzip"], []])
            #expect(server.recordedCassette?.interactions.first?.request.headers["Accept-Encoding"] == sent)
        }
    }

    @Test(arguments: [("br", Data([0x0B, 0x02, 0x80, 0x6F, 0x6B, 0x03])), ("gzip", Data("not gzip at all".utf8))])
    func aBodyThatIsNotDecoded_isRecordedAsItCame_withItsCoding(coding: String, body: Data) async throws {
        var wire = Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Encoding: \(coding)\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
        wire.append(body)
        let answer = wire
        try await withRecordedUpstream({ _, _ in .raw(answer, then: .keepAlive) }) { server, base, _ in
            let response = try await rawExchange(base, "GET /coded HTTP/1.1\r\nHost: localhost")
            #expect(response.body == body)
            #expect(response.headers["Content-Encoding"] == coding)
            let recorded = try #require(server.recordedCassette?.interactions.first?.response)
            #expect(recorded.body.data == body)
            #expect(recorded.headers["Content-Encoding"] == coding)
        }
    }

    @Test func sequentialExchanges_reuseKeptAliveConnections() async throws {
        try await withRecordedUpstream({ _, _ in .response(status: 200, body: Data("ok".utf8)) }) { server, base, arrivals in
            for index in 0..<6 {
                let response = try await rawExchange(base, "GET /n/\(index) HTTP/1.1\r\nHost: localhost")
                #expect(response.status == 200)
            }
            // One connection per event loop at most, each carrying several requests
            let connections = Set(arrivals.all.map(\.connection))
            #expect(connections.count <= EventLoopGroup.shared.loops.count)
            #expect(arrivals.all.contains { $0.index > 0 })
            #expect(server.recordedCassette?.interactions.count == 6)
        }
    }

    @Test func aKeptAliveConnectionClosedWithoutAnAnswer_carriesTheRequestAgainOnANewOne() async throws {
        // The upstream closes every connection at its second request without answering: what a client sees
        // when the upstream's idle timeout closed the connection just as the request went out.
        try await withRecordedUpstream({ request, context in
            context.requestIndex == 0 ? .response(status: 200, body: Data(request.path.utf8)) : .close
        }) { server, base, arrivals in
            let count = EventLoopGroup.shared.loops.count + 1  // enough for one request to find a kept-alive connection
            for index in 0..<count {
                let response = try await rawExchange(base, "GET /n/\(index) HTTP/1.1\r\nHost: localhost")
                #expect(response.status == 200)
                #expect(response.bodyText == "/n/\(index)")
            }
            // Every request was answered, one of them after it was sent a second time
            #expect(arrivals.all.count == count + 1)
            #expect(arrivals.all.filter { $0.index > 0 }.count == 1)
            #expect(server.recordedCassette?.interactions.map(\.response?.status) == Array(repeating: 200, count: count))
        }
    }

    /// As a port forwarder with nothing behind it does: the upstream was not reached, so nothing is recorded.
    @Test func aNewConnectionClosedWithoutAnAnswer_isNotRecorded_theUpstreamWasNotReached() async throws {
        try await withRecordedUpstream({ _, _ in .close }) { server, base, arrivals in
            let response = try await rawExchange(base, "GET /gone HTTP/1.1\r\nHost: localhost")
            #expect(response.status == 502)
            #expect(response.headers["X-MockServer-Upstream-Failure"] == "reset")
            #expect(arrivals.all.count == 1)  // not sent again: the connection was new
            #expect(server.recordedCassette?.interactions.isEmpty != false)
            let error = try #require(server.unrecordedRequestsError(file: "f.json"))
            #expect(error.description.contains("closed the connection without answering.), so nothing was recorded for 1 request (the first: GET /gone)"))
        }
    }

    @Test func anAnswerCutMidBody_isRecordedAsAReset_sayingWhere() async throws {
        let wire = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{\"a\":"
        try await withRecordedUpstream({ _, _ in .raw(Data(wire.utf8), then: .close) }) { server, base, _ in
            let client = try RawHTTPClient(base)
            defer { client.close() }
            try client.send("GET /cut HTTP/1.1\r\nHost: localhost\r\n\r\n")
            // The client has the head and the bytes before the cut already: it sees the answer cut there
            let (bytes, ending) = await client.readToEnd()
            #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("\r\n\r\n{\"a\":"))
            #expect(ending == .closed)
            let failure = try #require(server.recordedCassette?.interactions.first?.failure)
            #expect(failure == TransportFailure(kind: .reset, message: "The upstream closed the connection 5 bytes before the end of its answer's body."))
        }
    }

    @Test func aChunkedJSONAnswer_isRecordedWhole_byteForByte() async throws {
        let document = "{\n  \"b\": 1.0,\n  \"a\": \"\\u00e9\"\n}\n"
        let chunks = document.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).enumerated().map { index, part in
            (index == 0 ? Array(part) : [UInt8(ascii: ",")] + Array(part))
        }
        var wire = Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        for chunk in chunks {
            wire.append(Data(String(chunk.count, radix: 16).utf8) + Data("\r\n".utf8) + Data(chunk) + Data("\r\n".utf8))
        }
        wire.append(Data("0\r\n\r\n".utf8))
        let answer = wire
        try await withRecordedUpstream({ _, _ in .raw(answer, then: .keepAlive) }) { server, base, _ in
            let response = try await rawExchange(base, "GET /doc HTTP/1.1\r\nHost: localhost")
            #expect(response.body == Data(document.utf8))
            let recorded = try #require(server.recordedCassette?.interactions.first?.response)
            #expect(recorded.body.data == Data(document.utf8))
            #expect(!recorded.headers.contains("Transfer-Encoding"))
        }
    }
}
