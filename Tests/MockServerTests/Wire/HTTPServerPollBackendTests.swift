import Foundation
@testable import MockServer
import Testing

/// The portable poll(2) backend (the one Darwin uses) runs the same scenarios on Linux, where the
/// default backend is epoll.
@Suite struct HTTPServerPollBackendTests {
    /// One shared pair of poll loops; event-loop threads live for the whole process.
    private static let pollGroup = EventLoopGroup(loopCount: 2, backend: .poll)

    private func withPollServer(
        _ configuration: HTTPServer.Configuration = .forTests,
        respond: @escaping @Sendable (HTTPRequest) -> HTTPReply = EchoHandler.echo,
        _ body: (HTTPServer, URL) async throws -> Void
    ) async throws {
        try await withServer(configuration, handler: ClosureHandler { request, _ in respond(request) }, group: Self.pollGroup, body)
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
        let server = HTTPServer(configuration: .init(), handler: ClosureHandler { _, _ in .stall }, group: Self.pollGroup)
        let client = try RawHTTPClient(try await server.start())
        try client.send("GET / HTTP/1.1\r\n\r\n")
        #expect(await client.readToEnd(timeout: .milliseconds(200)).ending == .timedOut)
        await server.stop()
        #expect(await client.readToEnd(timeout: .seconds(10)).ending != .timedOut)
    }

    @Test func reset_isSeenAsConnectionReset() async throws {
        try await withPollServer(respond: { _ in .reset }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET / HTTP/1.1\r\n\r\n")
            #expect(await client.readToEnd().ending == .reset)
        }
    }
}
