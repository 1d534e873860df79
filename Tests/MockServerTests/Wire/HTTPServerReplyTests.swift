import Foundation
@testable import MockServer
@testable import MockServerWire
import ServiceReplayShared
import Testing

/// The wire-level replies fault injection builds on, observed byte for byte with a raw socket.
@Suite struct HTTPServerReplyTests {
    private static let request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
    private static let json = HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"a":[1,2,3],"b":"four"}"#.utf8))

    /// Sends one request to a server answering with `reply` and reads until the connection ends.
    private func exchange(_ reply: HTTPReply, timeout: Duration = .seconds(10)) async throws -> (bytes: Data, ending: RawHTTPClient.Ending) {
        try await withServer(respond: { _ in reply }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send(Self.request)
            return await client.readToEnd(timeout: timeout)
        }
    }

    @Test func close_endsTheConnectionWithoutAByte() async throws {
        let (bytes, ending) = try await exchange(.close)
        #expect(bytes.isEmpty)
        #expect(ending == .closed)
    }

    @Test func reset_isSeenAsConnectionReset() async throws {
        let (bytes, ending) = try await exchange(.reset)
        #expect(bytes.isEmpty)
        #expect(ending == .reset)
    }

    @Test(arguments: [0, 1, 17, 4096, 100_000])
    func raw_thenClose_deliversExactlyThoseBytes(count: Int) async throws {
        let bytes = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let (received, ending) = try await exchange(.raw(bytes))
        #expect(received == bytes)
        #expect(ending == .closed)
    }

    @Test func raw_thenReset_deliversTheBytesThenAReset() async throws {
        let (received, ending) = try await exchange(.raw(Data("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\npartial".utf8), then: .reset))
        #expect(String(decoding: received, as: UTF8.self) == "HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\npartial")
        #expect(ending == .reset)
    }

    @Test func raw_thenKeepAlive_servesTheNextRequest() async throws {
        let handler = TestHandler { request, _ in
            request.target == "/raw" ? .raw(Data("HTTP/1.1 299 Custom\r\nContent-Length: 2\r\n\r\nok".utf8), then: .keepAlive) : .response(status: 200)
        }
        try await withServer(handler: handler) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET /raw HTTP/1.1\r\n\r\nGET /next HTTP/1.1\r\n\r\n")
            let first = try await client.readResponse()
            #expect(first.status == 299)
            #expect(first.bodyText == "ok")
            #expect(try await client.readResponse().status == 200)
        }
    }

    @Test(arguments: [0, 1, 10])
    func truncatedBody_sendsTheHeadAndExactlyNBodyBytes(kept: Int) async throws {
        // Given a response that declares its whole body but carries only its first `kept` bytes (a deliberate
        // truncation, which the server must write as given rather than fix)
        var truncated = Self.json
        truncated.headers.set(name: "Content-Length", value: String(Self.json.body.count))
        truncated.body = Self.json.body.prefix(kept)
        let (received, ending) = try await exchange(.response(truncated))
        // Then the head the server wrote promises the whole body, exactly the kept bytes of the real body
        // follow it, and the connection closes
        let split = try #require(received.firstRange(of: Data("\r\n\r\n".utf8)))
        let head = String(decoding: received[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        #expect(head.first == "HTTP/1.1 200 OK")
        #expect(head.contains("Content-Length: \(Self.json.body.count)"))
        #expect(head.contains("Content-Type: application/json"))
        #expect(received[split.upperBound...] == Self.json.body.prefix(kept))
        #expect(ending == .closed)
    }

    @Test func serialized_isWhatTheServerWritesForTheResponse() {
        let text = String(decoding: Self.json.serialized, as: UTF8.self)
        #expect(text == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 24\r\n\r\n" + #"{"a":[1,2,3],"b":"four"}"#)
        #expect(Self.json.serializedHead.count == Self.json.serialized.count - 24)
    }

    @Test func stall_sendsNothing_andStopStillClosesPromptly() async throws {
        let stalled = Signal()
        let server = HTTPServer { _ in
            stalled.open()
            return .stall
        }
        let client = try RawHTTPClient(try await server.start())
        try client.send(Self.request)
        // Given a stalled exchange: once the stall is carried out, the connection stays open
        await stalled.wait()
        await Settled.loops()
        #expect(server.openConnectionCount == 1)
        // When the server stops, it returns without waiting for the client, and the client sees the end
        // (the bound is only there to tell a hang, which would never return; 10 s was once passed at 10.25 s
        // under ThreadSanitizer with the whole suite sharing two cores)
        let started = ContinuousClock.now
        await server.stop()
        #expect(ContinuousClock.now - started < .seconds(60))
        // Then every byte the server ever sent arrives before that end: none
        let late = await client.readToEnd(timeout: .seconds(10))
        #expect(late.bytes.isEmpty)
        #expect(late.ending != .timedOut)
    }

    @Test func raw_thenStall_sendsTheBytesAndHoldsTheConnection() async throws {
        // Given a reply that sends a head promising a body, then never sends it
        let server = HTTPServer { _ in .raw(Self.json.serializedHead, then: .stall) }
        let client = try RawHTTPClient(try await server.start())
        try client.send(Self.request)
        #expect(try await client.read(count: Self.json.serializedHead.count) == Self.json.serializedHead)
        // Once the reply is carried out (the head's turn on the loop is over), the connection stays open
        await Settled.loops()
        #expect(server.openConnectionCount == 1)
        // When the server stops, the connection ends, and nothing came after the head
        await server.stop()
        let more = await client.readToEnd(timeout: .seconds(10))
        #expect(more.bytes.isEmpty)
        #expect(more.ending != .timedOut)
    }

    @Test func stall_ignoresTheRequestTimeout_andEndsWhenTheClientCloses() async throws {
        // The idle timeout stays long: it runs from the connect to the request's first byte, and a busy machine
        // once put more than 100 ms between the two, closing the connection before it stalled.
        let stalled = Signal()
        let respond: @Sendable (HTTPRequest) -> HTTPReply = { _ in
            stalled.open()
            return .stall
        }
        try await withServer(.init(requestTimeout: .milliseconds(100)), respond: respond) { server, url in
            let client = try RawHTTPClient(url)
            try client.send(Self.request)
            // When four request timeouts have passed since the stall, and the loops have seen them pass (a loop
            // fires its due timers after its jobs: two rounds of jobs), the connection is still open. However late
            // the loop runs, it has looked at its timers by then; a short look with a read timeout would not know.
            await stalled.wait()
            try await Task.sleep(for: .milliseconds(400))
            await Settled.loops()
            await Settled.loops()
            #expect(server.openConnectionCount == 1)
            client.close()
            // The server notices the close on its own; poll its counter, bounded at 10 s.
            var open = server.openConnectionCount
            for _ in 0..<500 where open > 0 {
                try await Task.sleep(for: .milliseconds(20))
                open = server.openConnectionCount
            }
            #expect(open == 0)
        }
    }

    @Test func delayed_answersNoSoonerThanTheDelay() async throws {
        try await withServer(respond: { _ in .delayed(by: .milliseconds(250), .response(Self.json)) }) { _, url in
            let client = try RawHTTPClient(url)
            let started = ContinuousClock.now
            try client.send(Self.request)
            let response = try await client.readResponse()
            #expect(ContinuousClock.now - started >= .milliseconds(240))
            #expect(response.body == Self.json.body)
        }
    }

    @Test func throttled_dripsTheBytesAtTheRate() async throws {
        // Given 2,000 bytes at 4,000 bytes per second (slices of 200 bytes every 50 ms)
        let response = HTTPResponse(status: 200, body: Data(repeating: 120, count: 2000))
        try await withServer(respond: { _ in .throttled(bytesPerSecond: 4000, .response(response)) }) { _, url in
            let client = try RawHTTPClient(url)
            let started = ContinuousClock.now
            try client.send(Self.request)
            let received = try await client.readResponse(timeout: .seconds(10))
            // Then everything arrives intact, taking at least the time the rate implies for the last slices
            #expect(received.body == response.body)
            #expect(ContinuousClock.now - started >= .milliseconds(450))
            // And the connection is still usable afterwards
            try client.send(Self.request)
            #expect(try await client.readResponse(timeout: .seconds(10)).body.count == 2000)
        }
    }

    @Test(arguments: [1, 19, Int.max])
    func throttled_atExtremeRates_stillDeliversEveryByte(rate: Int) async throws {
        let bytes = Data("ab".utf8)
        let (received, ending) = try await exchange(.throttled(bytesPerSecond: rate, .raw(bytes)), timeout: .seconds(10))
        #expect(received == bytes)
        #expect(ending == .closed)
    }

    @Test func throttledRaw_thenClose_keepsTheExactBytes() async throws {
        let bytes = Data((0..<300).map { UInt8($0 % 251) })
        let (received, ending) = try await exchange(.throttled(bytesPerSecond: 3000, .raw(bytes)), timeout: .seconds(10))
        #expect(received == bytes)
        #expect(ending == .closed)
    }

    @Test func deferred_canBeAnsweredFromAnotherThread() async throws {
        try await withServer(respond: { _ in
            .deferred { responder in
                Thread { responder.send(.response(Self.json)) }.start()
            }
        }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send(Self.request + Self.request)
            #expect(try await client.readResponse().body == Self.json.body)
            #expect(try await client.readResponse().body == Self.json.body)
        }
    }

    @Test func deferred_answeredInline_andTwice_usesTheFirstAnswer() async throws {
        try await withServer(respond: { _ in
            .deferred { responder in
                #expect(responder.send(.response(status: 201)))
                #expect(!responder.send(.response(status: 500)))
            }
        }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send(Self.request)
            #expect(try await client.readResponse().status == 201)
        }
    }

    @Test func async_answersWithTheResultOfTheTask() async throws {
        try await withServer(respond: { request in
            .async {
                await Task.yield()
                return .response(status: 200, body: Data("async \(request.target)".utf8))
            }
        }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET /x HTTP/1.1\r\n\r\n")
            #expect(try await client.readResponse().bodyText == "async /x")
        }
    }

    @Test func responderReleasedWithoutAnswer_gets500() async throws {
        try await withServer(respond: { _ in .deferred { _ in } }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send(Self.request)
            let response = try await client.readResponse()
            #expect(response.status == 500)
            #expect(response.bodyText == "The request handler released its responder without answering.\n")
        }
    }

    @Test func stop_cancelsAPendingDeferredAnswer() async throws {
        // Given a request whose answer never comes
        let cancelled = Lock(false)
        let kept = Lock<HTTPResponder?>(nil)
        let gate = UpstreamGate()
        let server = HTTPServer { _ in
            .deferred { responder in
                kept.withLock { $0 = responder }
                responder.onCancel { cancelled.withLock { $0 = true } }
                gate.hold(responder)
            }
        }
        let client = try RawHTTPClient(try await server.start())
        try client.send(Self.request)
        await gate.waitForRequest()
        // While the answer is awaited, the connection stays open
        await Settled.loops()
        #expect(server.openConnectionCount == 1)
        // When the server stops
        await server.stop()
        // Then the client sees the end, and nothing before it
        let late = await client.readToEnd(timeout: .seconds(10))
        #expect(late.bytes.isEmpty)
        #expect(late.ending != .timedOut)
        // Then the responder is cancelled and a late answer is ignored
        #expect(cancelled.withLock { $0 })
        let responder = kept.withLock { $0 }
        #expect(responder?.isCancelled == true)
        #expect(responder?.send(.response(status: 200)) == false)
    }

    @Test(arguments: [HTTPAdmission.close, .reset])
    func admission_refusesConnectionsBeforeReadingAnything(admission: HTTPAdmission) async throws {
        let handler = TestHandler(admit: { connection in connection.id == 1 ? admission : .accept }) { _, _ in .response(status: 200) }
        try await withServer(handler: handler) { _, url in
            // The refused connection sends nothing, so what it sees depends only on the admission.
            let refused = try RawHTTPClient(url)
            let (bytes, ending) = await refused.readToEnd()
            #expect(bytes.isEmpty)
            #expect(ending == (admission == .reset ? .reset : .closed))
            // The next connection is served
            let next = try RawHTTPClient(url)
            try next.send(Self.request)
            #expect(try await next.readResponse().status == 200)
        }
    }

    @Test func connectionInfo_namesTheClient() async throws {
        let handler = TestHandler { _, context in
            .response(status: 200, body: Data("\(context.connection.remoteAddress) \(context.connection.remotePort > 0)".utf8))
        }
        try await withServer(handler: handler) { _, url in
            let client = try RawHTTPClient(url)
            try client.send(Self.request)
            #expect(try await client.readResponse().bodyText == "127.0.0.1 true")
        }
    }
}
