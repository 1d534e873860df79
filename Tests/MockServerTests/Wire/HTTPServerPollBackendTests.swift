import Foundation
@testable import MockServer
@testable import MockServerWire
import ServiceReplayShared
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The portable poll(2) backend (the one Darwin uses) runs the same scenarios on Linux, where the
/// default backend is epoll.
@Suite struct HTTPServerPollBackendTests {
    /// One shared pair of poll loops; event-loop threads live for the whole process.
    private static let pollGroup = EventLoopGroup(loopCount: 2, backend: .poll)
    /// One poll loop that reports a peer's FIN as Darwin's poll does (POLLIN|POLLHUP).
    private static let darwinHangupGroup = EventLoopGroup(loopCount: 1, backend: .pollWithDarwinHangup)

    private func withPollServer(
        _ configuration: HTTPServer.Configuration = .forTests,
        respond: @escaping @Sendable (HTTPRequest) -> HTTPReply = EchoHandler.echo,
        _ body: (HTTPServer, URL) async throws -> Void
    ) async throws {
        try await withServer(configuration, handler: ClosureHandler { request, _ in respond(request) }, group: Self.pollGroup, body)
    }

    /// poll(2) wakes every loop that watches a listener on each connection, so one loop accepts for a server,
    /// taken in turn: a server's connections are all served on its loop, and the next server's on the next.
    @Test func pollLoops_eachServerAcceptsOnOneLoop_andTheNextServerOnTheNext() async throws {
        let group = EventLoopGroup(loopCount: 2, backend: .poll)
        let servedOn = Lock<[String: Set<Int>]>([:])
        let servers = ["first", "second", "third"].map { name in
            HTTPServer(
                configuration: .forTests,
                handler: ClosureHandler { _, _ in
                    let loop = group.loops.firstIndex { $0.isCurrentThread } ?? -1
                    _ = servedOn.withLock { $0[name, default: []].insert(loop) }
                    return .response(status: 200, body: Data())
                }, group: group)
        }
        for server in servers {
            let url = try await server.start()
            for _ in 0..<6 {
                let client = try RawHTTPClient(url)
                try client.send("GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
                #expect(try await client.readResponse().status == 200)
            }
        }
        for server in servers { await server.stop() }
        #expect(servedOn.withLock { $0 } == ["first": [0], "second": [1], "third": [0]])
    }

    /// epoll wakes one loop per connection, so there every loop accepts for every server.
    @Test func epollLoops_everyLoopAcceptsForEachServer() throws {
        #if os(Linux)
        let group = EventLoopGroup(loopCount: 2)
        #expect(group.acceptingLoops().map(ObjectIdentifier.init) == group.loops.map(ObjectIdentifier.init))
        #expect(group.loops.count == 2)
        #endif
    }

    @Test func pipelinedKeepAliveRequests_areAnsweredInOrder() async throws {
        try await withPollServer { _, url in
            let client = try RawHTTPClient(url)
            try client.send((0..<5).map { "GET /\($0) HTTP/1.1\r\n\r\n" }.joined())
            for index in 0..<5 {
                #expect(try await client.readResponse().headers["X-Target"] == "/\(index)")
            }
        }
    }

    @Test func largeResponses_areWrittenCompletelyWhenTheSocketFillsUp() async throws {
        let body = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0) })
        try await withPollServer(respond: { _ in .response(status: 200, body: body) }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n")
            #expect(try await client.readResponse(timeout: .seconds(20)).body == body)
            #expect(try await client.readResponse(timeout: .seconds(20)).body == body)
        }
    }

    @Test func stalledRequest_gets408() async throws {
        try await withPollServer(.init(requestTimeout: .milliseconds(200))) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET / HTTP/1.1\r\n")
            #expect(try await client.readResponse(timeout: .seconds(10)).status == 408)
        }
    }

    @Test func stall_thenStop_closesPromptly() async throws {
        let stalled = Signal()
        let handler = ClosureHandler { _, _ in
            stalled.open()
            return .stall
        }
        let server = HTTPServer(configuration: .init(), handler: handler, group: Self.pollGroup)
        let client = try RawHTTPClient(try await server.start())
        try client.send("GET / HTTP/1.1\r\n\r\n")
        // Once the stall is carried out, the connection stays open
        await stalled.wait()
        await Settled.loops(of: Self.pollGroup)
        #expect(server.openConnectionCount == 1)
        // When the server stops, the client sees the end, and nothing before it
        await server.stop()
        let late = await client.readToEnd(timeout: .seconds(10))
        #expect(late.bytes.isEmpty)
        #expect(late.ending != .timedOut)
    }

    @Test func reset_isSeenAsConnectionReset() async throws {
        try await withPollServer(respond: { _ in .reset }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET / HTTP/1.1\r\n\r\n")
            #expect(await client.readToEnd().ending == .reset)
        }
    }

    /// The switch really reports a FIN as Darwin does, so the test below exercises Darwin's reports.
    @Test func darwinHangupSwitch_reportsAPeersFINAsReadableAndHangup() throws {
        var pair: [Int32] = [-1, -1]
        #if os(Linux)
        let type = Int32(SOCK_STREAM.rawValue)
        #else
        let type = SOCK_STREAM
        #endif
        try #require(socketpair(AF_UNIX, type, 0, &pair) == 0)
        defer { close(pair[0]); close(pair[1]) }
        let poller = PollPoller(reportsPeerCloseAsHangup: true)
        poller.add(pair[0], interest: .read, shared: false)
        var events: [PollerEvent] = []
        _ = "GET / HTTP/1.1\r\n\r\n".utf8CString.withUnsafeBytes { write(pair[1], $0.baseAddress, $0.count - 1) }
        poller.wait(timeoutMilliseconds: 10_000, into: &events)
        #expect(events.map { [$0.readable, $0.hangup] } == [[true, false]])
        shutdown(pair[1], Int32(SHUT_WR))
        poller.wait(timeoutMilliseconds: 10_000, into: &events)
        #expect(events.map { [$0.readable, $0.hangup] } == [[true, true]])
    }

    @Test func clientHalfClose_afterACompleteRequest_stillGetsTheAnswer_withDarwinsHangup() async throws {
        try await withServer(.forTests, handler: ClosureHandler { request, _ in EchoHandler.echo(request) }, group: Self.darwinHangupGroup) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET /half HTTP/1.1\r\n\r\n")
            client.shutdownWrite()
            #expect(try await client.readResponse().headers["X-Target"] == "/half")
            #expect(await client.readToEnd().ending == .closed)
        }
    }

    @Test func clientHalfClose_withAPartialRequest_isClosedWithoutAnAnswer_withDarwinsHangup() async throws {
        try await withServer(.forTests, handler: ClosureHandler { request, _ in EchoHandler.echo(request) }, group: Self.darwinHangupGroup) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET /half HTTP/1.1\r\n")
            client.shutdownWrite()
            let end = await client.readToEnd()
            #expect(end.bytes.isEmpty)
            #expect(end.ending == .closed)
        }
    }
}
