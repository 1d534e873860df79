import Foundation
@testable import MockServer
@testable import MockServerWire
import Testing

/// Limits and hostile input: every violation gets its status and a close, slow clients time out,
/// and nothing a client sends disturbs other connections.
@Suite struct HTTPServerLimitsTests {
    private static let small = HTTPServer.Configuration(
        maxRequestLineLength: 100, maxHeaderBytes: 400, maxHeaderCount: 5, maxBodyBytes: 50,
        requestTimeout: .milliseconds(300), idleTimeout: .seconds(300))

    @Test(arguments: [
        ("GET /\(String(repeating: "a", count: 200)) HTTP/1.1\r\n\r\n", 431),
        ("GET / HTTP/1.1\r\nX: \(String(repeating: "a", count: 500))\r\n\r\n", 431),
        ("GET / HTTP/1.1\r\n" + (1...6).map { "H\($0): v\r\n" }.joined() + "\r\n", 431),
        ("POST / HTTP/1.1\r\nContent-Length: 51\r\n\r\n", 413),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n33\r\n\(String(repeating: "a", count: 51))\r\n0\r\n\r\n", 413),
        ("GET / HTTP/1.1\r\nBad Header\r\n\r\n", 400),
        ("NOT HTTP AT ALL\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: identity\r\n\r\n", 400),
        ("GET / HTTP/3.0\r\n\r\n", 505),
    ])
    func badRequests_getTheirStatus_thenTheConnectionCloses(request: String, status: Int) async throws {
        try await withServer(Self.small) { _, url in
            let client = try RawHTTPClient(url)
            try client.send(request)
            let response = try await client.readResponse()
            #expect(response.status == status)
            #expect(response.headers["Connection"] == "close")
            #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
            #expect(response.bodyText.hasSuffix(".\n"))
            #expect(await client.readToEnd().ending == .closed)
        }
    }

    @Test func bodyTooLarge_withoutExpect_is413_evenWhileTheClientKeepsSending() async throws {
        // Given a client that sends a large declared body without waiting
        try await withServer(Self.small) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("POST / HTTP/1.1\r\nContent-Length: 200000\r\n\r\n")
            try client.send(Data(repeating: 0, count: 200_000))
            // Then it still reads the 413 (the server lingers instead of resetting the answer away)
            #expect(try await client.readResponse().status == 413)
        }
    }

    @Test(arguments: ["GET / HTTP/1.1\r\nHost: x\r\n", "POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc", "GET / HT"])
    func stalledRequest_gets408AfterTheRequestTimeout_thenCloses(partial: String) async throws {
        try await withServer(Self.small) { _, url in
            // Given a client that sends part of a request and then nothing (timed from before it connects,
            // since the server's clock for the request may start as soon as it accepts)
            let started = ContinuousClock.now
            let client = try RawHTTPClient(url)
            try client.send(partial)
            // Then the server answers 408 once the request timeout has passed, and closes
            let response = try await client.readResponse(timeout: .seconds(10))
            #expect(response.status == 408)
            #expect(ContinuousClock.now - started >= .milliseconds(250))
            #expect(await client.readToEnd().ending == .closed)
        }
    }

    @Test func headTrickledInLineByLine_gets408OnceTheRequestTimeoutPassedSinceItsFirstByte() async throws {
        // Given a 300 ms request timeout (and an idle timeout long enough never to matter here)
        let configuration = HTTPServer.Configuration(requestTimeout: .milliseconds(300), idleTimeout: .seconds(300))
        try await withServer(configuration) { _, url in
            // When a client sends its head one line at a time, each line at least 100 ms after the one before
            // (the pause is a bounded wait for the answer), so that every read makes progress
            let client = try RawHTTPClient(url)
            try client.send("GET / HTTP/1.1\r\n")
            var answer: RawHTTPClient.Response?
            var linesSent = 1
            while answer == nil, linesSent < 50 {
                do {
                    answer = try await client.readResponse(timeout: .milliseconds(100))
                } catch {
                    // Nothing yet: send the next line. The server may close meanwhile; then read what it said.
                    do {
                        try client.send("X-Line-\(linesSent): slow\r\n")
                        linesSent += 1
                    } catch {
                        answer = try await client.readResponse(timeout: .seconds(10))
                    }
                }
            }
            // Then the head as a whole timed out: 408 came before the 50th line (a timeout restarted by every
            // read would let the client go on for ever), and the connection closes
            let response = try #require(answer, "no answer after \(linesSent) lines")
            #expect(response.status == 408)
            #expect(response.bodyText == "The request did not arrive completely in time.\n")
            #expect(linesSent < 50)
            #expect(await client.readToEnd(timeout: .seconds(10)).ending == .closed)
        }
    }

    /// The default limit on the request line plus header lines: 32 KiB.
    private static let defaultHeadLimit = 32768

    @Test(arguments: [(defaultHeadLimit, 200), (defaultHeadLimit + 1, 431)])
    func defaultConfiguration_acceptsAHeadUpToItsHeaderLimit_and431sOneByteMore(headBytes: Int, status: Int) async throws {
        // Given a server with the default configuration
        try await withServer(HTTPServer.Configuration()) { _, url in
            // When the request line and header lines (each with its CRLF) come to `headBytes` bytes
            let requestLine = "GET / HTTP/1.1\r\n"
            let filler = String(repeating: "a", count: headBytes - requestLine.utf8.count - "X: \r\n".utf8.count)
            let client = try RawHTTPClient(url)
            try client.send(requestLine + "X: \(filler)\r\n\r\n")
            // Then it is served at the limit and refused one byte over it, with the limit named
            let response = try await client.readResponse()
            #expect(response.status == status)
            if status == 431 {
                #expect(response.bodyText == "The request line and headers exceed the limit of 32768 bytes.\n")
            } else {
                #expect(response.headers["X-Header-Count"] == "1")
            }
        }
    }

    @Test func chunkedBodyOverTheLimitInManySmallChunks_gets413BeforeItEnds() async throws {
        try await withServer(Self.small) { _, url in
            // Given a limit of 50 body bytes, when a chunked body arrives as 51 one-byte chunks (and no end)
            let client = try RawHTTPClient(url)
            try client.send(
                "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + String(repeating: "1\r\na\r\n", count: 51))
            // Then the sum of the chunks is what counts: 413, naming the limit, then the connection closes
            let response = try await client.readResponse()
            #expect(response.status == 413)
            #expect(response.bodyText == "The request body exceeds the limit of 50 bytes.\n")
            #expect(await client.readToEnd().ending == .closed)
        }
    }

    @Test func idleKeepAliveConnection_isClosedSilentlyAfterTheIdleTimeout() async throws {
        // Only this test has a short idle timeout: elsewhere it would also run between the connect and the
        // request, where a busy machine can pause the client.
        try await withServer(.init(idleTimeout: .milliseconds(300))) { server, url in
            let client = try RawHTTPClient(url)
            try client.send("GET / HTTP/1.1\r\n\r\n")
            _ = try await client.readResponse()
            let (bytes, ending) = await client.readToEnd(timeout: .seconds(10))
            #expect(bytes.isEmpty)
            #expect(ending == .closed)
            #expect(server.openConnectionCount == 0)
        }
    }

    /// A request timeout of 1 s and an idle timeout 100 times longer: which one applies is never a close call.
    /// (300 ms once closed a served keep-alive connection within its idle pause under ThreadSanitizer.)
    private static let shortRequestLongIdle = HTTPServer.Configuration(requestTimeout: .seconds(1), idleTimeout: .seconds(100))

    @Test func keepAliveConnection_staysOpenPastTheRequestTimeout_andServesTheNextRequest() async throws {
        try await withServer(Self.shortRequestLongIdle) { server, url in
            // Given a keep-alive connection that was served once
            let client = try RawHTTPClient(url)
            try client.send("GET /first HTTP/1.1\r\n\r\n")
            #expect(try await client.readResponse().headers["X-Target"] == "/first")
            // When it idles for twice the request timeout (the pause is what is tested: a read that must find nothing),
            // and the loops have seen that time pass (a loop fires its due timers after its jobs: two rounds of
            // jobs), however late a busy machine ran them
            let (bytes, ending) = await client.readToEnd(timeout: .seconds(2))
            await Settled.loops()
            await Settled.loops()
            // Then the head timer of the first request is not running: nothing came and the connection is open
            #expect(bytes.isEmpty)
            #expect(ending == .timedOut)
            #expect(server.openConnectionCount == 1)
            // And the next request on it is served
            try client.send("GET /second HTTP/1.1\r\n\r\n")
            let second = try await client.readResponse(timeout: .seconds(10))
            #expect(second.status == 200)
            #expect(second.headers["X-Target"] == "/second")
        }
    }

    @Test(arguments: ["GET / HTTP/1.1\r\nHost: x\r\n", "POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc"])
    func requestStalledMidway_getsTheRequestTimeout_notTheIdleTimeout(partial: String) async throws {
        try await withServer(Self.shortRequestLongIdle) { _, url in
            // Given a client that sends part of a head, or a head and part of its body, then nothing
            let client = try RawHTTPClient(url)
            try client.send(partial)
            // Then the 1 s request timeout ends it with a 408, long before the 100 s idle timeout could
            let response = try await client.readResponse(timeout: .seconds(10))
            #expect(response.status == 408)
            #expect(await client.readToEnd(timeout: .seconds(10)).ending == .closed)
        }
    }

    @Test func maxConnections_closesConnectionsBeyondTheCap_andServesTheOthers() async throws {
        try await withServer(.init(maxConnections: 2)) { _, url in
            // Given two open, served connections
            let first = try RawHTTPClient(url)
            let second = try RawHTTPClient(url)
            for client in [first, second] {
                try client.send("GET / HTTP/1.1\r\n\r\n")
                #expect(try await client.readResponse().status == 200)
            }
            // When a third connects, it is closed without an answer
            let third = try RawHTTPClient(url)
            #expect(await third.readToEnd().bytes.isEmpty)
            // And once one is closed by the server (the client sees EOF only after its slot is free),
            // a new connection is served again
            try first.send("GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
            _ = try await first.readResponse()
            #expect(await first.readToEnd().ending == .closed)
            let fourth = try RawHTTPClient(url)
            try fourth.send("GET / HTTP/1.1\r\n\r\n")
            #expect(try await fourth.readResponse().status == 200)
        }
    }

    @Test func garbageFromManyClients_neverDisturbsAHealthyConnection() async throws {
        // Small limits, but default timeouts: the healthy connection must not idle out on a slow machine.
        try await withServer(.init(maxRequestLineLength: 100, maxHeaderBytes: 400, maxHeaderCount: 5, maxBodyBytes: 50)) { _, url in
            // Given a healthy keep-alive connection
            let healthy = try RawHTTPClient(url)
            var generator = SeededGenerator(seed: 0x5EED)
            for round in 0..<60 {
                // When another client sends random bytes (some shaped like a request) and vanishes
                let attacker = try RawHTTPClient(url)
                var bytes = (0..<Int.random(in: 1...600, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                if round % 3 == 0 { bytes = Array("POST / HTTP/1.1\r\nContent-Length: 5\r\n".utf8) + bytes }
                try? attacker.send(Data(bytes))
                if round % 2 == 0 { attacker.close() }
                // Then the healthy connection is still served
                try healthy.send("GET /ok\(round) HTTP/1.1\r\n\r\n")
                #expect(try await healthy.readResponse().headers["X-Target"] == "/ok\(round)")
            }
        }
    }

    @Test func clientResettingMidRequest_isForgotten() async throws {
        try await withServer { server, url in
            for _ in 0..<20 {
                let client = try RawHTTPClient(url)
                try client.send("POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\npartial")
                client.close()
            }
            let client = try RawHTTPClient(url)
            try client.send("GET / HTTP/1.1\r\n\r\n")
            #expect(try await client.readResponse().status == 200)
            #expect(server.openConnectionCount >= 1)
        }
    }
}
