import Foundation
@testable import MockServer
@testable import MockServerWire
import ServiceReplayShared
import Testing

/// A server on a `VirtualClock`, seen from a raw socket that names its transfer as a ServiceKit client on the
/// clock does: each timed answer waits on the clock, never in real time, and the clock moves by exactly its wait.
@Suite(.timeLimit(.minutes(1))) struct VirtualPacingTests {
    static let body = #"{"id":7,"name":"Ann Lee"}"#
    static let thing = Interaction.stub("GET", "/thing", json: try! CassetteJSON(parsing: Data(body.utf8)), headers: ["Content-Type": "application/json"])
    static let events = Interaction(
        request: RecordedRequest(method: "GET", target: "/events"),
        response: RecordedResponse(
            status: 200, headers: ["Content-Type": "text/event-stream"],
            body: .stream(
                RecordedStream([0, 500, 1500].map { RecordedStream.Part(offsetMs: $0, .event(ServerSentEventFields(data: "at \($0)"))) }))))

    /// Runs `body` with a server replaying `thing` and `events` under `specs`, on `clock`.
    static func withServer<T>(
        _ specs: String, clock: VirtualClock, requestTimeout: Duration? = nil,
        onRejection: (@Sendable (RejectedRequest) -> Void)? = nil, _ body: (CassetteServer, URL) async throws -> T
    ) async throws -> T {
        var configuration = CassetteServer.Configuration(faults: .specs(specs), streamTiming: .recorded)
        configuration.clock = clock
        configuration.onRejection = onRejection
        if let requestTimeout { configuration.server.requestTimeout = requestTimeout }
        return try await withMockServer(cassettes: [Cassette(name: "things", interactions: [thing, events])], configuration: configuration) {
            server in try await body(server, server.baseURL!)
        }
    }

    /// `GET path` naming `transfer`, on a new connection that the server closes after the answer.
    static func request(_ path: String, _ transfer: VirtualTransfer?) -> String {
        let named = transfer.map { "\(VirtualClock.transferHeader): \($0.headerValue)\r\n" } ?? ""
        return "GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\(named)\r\n"
    }

    /// What a transfer's timeout does, awaitable: the stream yields once when it fires.
    static func timeouts(of transfer: VirtualTransfer) -> AsyncStream<Void> {
        let (fired, continuation) = AsyncStream<Void>.makeStream()
        transfer.onTimeout {
            continuation.yield()
            continuation.finish()
        }
        return fired
    }

    @Test func latency_waitsOnTheClock_andTheHeaderNeverReachesTheJournal() async throws {
        let clock = VirtualClock()
        try await Self.withServer("latency=30s", clock: clock) { server, url in
            // GIVEN a latency of 30 s, WHEN a client on the clock asks
            let transfer = clock.beginTransfer(limit: nil)
            let client = try RawHTTPClient(url)
            try client.send(Self.request("/thing", transfer))
            let response = try await client.readResponse()
            // THEN the answer comes (within the raw client's hang guard, far below 30 s + the guard) and the clock moved by the latency
            #expect(response.status == 200)
            #expect(response.bodyText == Self.body)
            #expect(clock.elapsed == .seconds(30))
            #expect(clock.realTimeAnswers == 0)
            #expect(server.journal.entries.map { $0.request.headers.contains(VirtualClock.transferHeader) } == [false])
        }
    }

    @Test func stall_endsWithTheClientsTimeout_exactlyOnTheClock() async throws {
        let clock = VirtualClock()
        try await Self.withServer("stall", clock: clock) { _, url in
            // GIVEN a stall, WHEN a client on the clock with a 2 s timeout asks
            let transfer = clock.beginTransfer(limit: 2)
            let fired = Self.timeouts(of: transfer)
            let client = try RawHTTPClient(url)
            try client.send(Self.request("/thing", transfer))
            // THEN its timeout fires on the clock, at exactly 2 s
            for await _ in fired { break }
            #expect(clock.elapsed == .seconds(2))
        }
    }

    @Test func throttle_sendsASliceEveryFiftyMilliseconds_onTheClock() async throws {
        let clock = VirtualClock()
        try await Self.withServer("throttle=100B/s", clock: clock) { _, url in
            // GIVEN 100 bytes per second (5 bytes every 50 ms), WHEN a client on the clock asks
            let transfer = clock.beginTransfer(limit: 1)
            let client = try RawHTTPClient(url)
            try client.send(Self.request("/thing", transfer))
            let (bytes, ending) = await client.readToEnd()
            // THEN every byte arrives, the first slice at once and one more each 50 ms on the clock, and no timeout
            #expect(ending == .closed)
            #expect(String(decoding: bytes, as: UTF8.self).hasSuffix(Self.body))
            let slices = (bytes.count + 4) / 5
            #expect(clock.elapsed == .milliseconds(50 * (slices - 1)))
        }
    }

    @Test func stream_sendsEachPartAtItsRecordedOffset_onTheClock_onceTheClientReadTheOnesBefore() async throws {
        let clock = VirtualClock()
        try await Self.withServer("", clock: clock) { _, url in
            // GIVEN a stream of parts at 0, 0.5 and 1.5 s, WHEN a client on the clock with a 1 s timeout reads it
            let transfer = clock.beginTransfer(limit: 1)
            let client = try RawHTTPClient(url)
            try client.send(Self.request("/events", transfer))
            _ = try await client.read(through: "\r\n\r\n")
            var text = ""
            while let chunk = try await client.readChunk() {
                text += String(decoding: chunk, as: UTF8.self)
                // As ServiceKit does: each body byte read is told to the clock, which waits for them.
                transfer.received(chunk.count)
            }
            // THEN every part came, and the clock stands at the last one's offset: each gap was within the timeout
            #expect(text == "data: at 0\n\ndata: at 500\n\ndata: at 1500\n\n")
            #expect(clock.elapsed == .milliseconds(1500))
        }
    }

    @Test func streamPartsNotYetRead_holdTheClock() async throws {
        let clock = VirtualClock()
        try await Self.withServer("stall=event:1", clock: clock) { _, url in
            // GIVEN a stream that stalls after its first part, and a client on the clock with a 1 s timeout
            let transfer = clock.beginTransfer(limit: 1)
            let fired = Self.timeouts(of: transfer)
            let client = try RawHTTPClient(url)
            try client.send(Self.request("/events", transfer))
            _ = try await client.read(through: "\r\n\r\n")
            let chunk = try #require(try await client.readChunk())
            // WHEN the client has read the part but not yet said so, THEN the timeout has not fired
            #expect(clock.elapsed == .zero)
            // WHEN it says so, THEN the timeout fires one timeout after the part
            transfer.received(chunk.count)
            for await _ in fired { break }
            #expect(clock.elapsed == .seconds(1))
        }
    }

    @Test func requestFromAClientNotOnTheClock_isDelayedInRealTime_andCounted() async throws {
        let clock = VirtualClock()
        try await Self.withServer("latency=20ms", clock: clock) { _, url in
            // GIVEN a server on a clock, WHEN a client that names no transfer asks under a latency
            let client = try RawHTTPClient(url)
            let start = ContinuousClock.now
            try client.send(Self.request("/thing", nil))
            let response = try await client.readResponse()
            // THEN it waits in real time, the clock stays, and the answer is counted as given in real time
            #expect(response.status == 200)
            #expect(ContinuousClock.now - start >= .milliseconds(20))
            #expect(clock.elapsed == .zero)
            #expect(clock.realTimeAnswers == 1)
        }
    }

    @Test func requestWhoseBodyNeverComes_isLeftToTheClientsTimeout_notAnswered408() async throws {
        let clock = VirtualClock()
        let rejections = ServiceReplayShared.Lock<[Int]>([])
        try await Self.withServer(
            "", clock: clock, requestTimeout: .milliseconds(100),
            onRejection: { rejected in
                rejections.withLock { $0.append(rejected.status) }
            }
        ) { server, url in
            // GIVEN a client on the clock whose request announces a body that never comes
            let transfer = clock.beginTransfer(limit: 3)
            let fired = Self.timeouts(of: transfer)
            let client = try RawHTTPClient(url)
            try client.send(
                "POST /thing HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\(VirtualClock.transferHeader): \(transfer.headerValue)\r\n\r\n")
            // WHEN the server's request timeout passes THEN it answers nothing, and the client's timeout fires on the clock
            for await _ in fired { break }
            #expect(clock.elapsed == .seconds(3))
            client.close()
            #expect(server.journal.entries.isEmpty)
            #expect(rejections.withLock { $0 }.isEmpty, "no 408")
        }
    }
}
