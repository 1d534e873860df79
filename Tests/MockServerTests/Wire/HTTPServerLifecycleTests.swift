import Foundation
@testable import MockServer
@testable import MockServerWire
import Testing
import ServiceReplayTestSupport

/// Starting, stopping, and many servers side by side.
@Suite struct HTTPServerLifecycleTests {
    @Test func start_returnsLoopbackURLWithEphemeralPort_andServes() async throws {
        // Given a server with the default configuration
        let server = HTTPServer { _ in .response(status: 200, body: Data("up".utf8)) }
        // When started
        let url = try await server.start()
        // Then it listens on 127.0.0.1 at a non-zero port and answers at once
        #expect(url.absoluteString.hasPrefix("http://127.0.0.1:"))
        #expect((url.port ?? 0) > 0)
        #expect(server.baseURL == url)
        let client = try RawHTTPClient(url)
        try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await client.readResponse().bodyText == "up")
        await server.stop()
    }

    @Test func start_twice_returnsTheSameURL() async throws {
        let server = HTTPServer { _ in .response(status: 204) }
        let first = try await server.start()
        let second = try await server.start()
        #expect(first == second)
        await server.stop()
    }

    @Test func stop_isIdempotent_andStartAfterStopThrows() async throws {
        // Given a running server with a connection open, on a port that no parallel test can be given
        #if os(Linux)
        let reserved = try ReservedPort(sharedWithServers: true)
        let server = HTTPServer(configuration: .init(port: reserved.port)) { _ in .response(status: 204) }
        #else
        let server = HTTPServer { _ in .response(status: 204) }
        #endif
        let url = try await server.start()
        let client = try RawHTTPClient(url)
        try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await client.readResponse().status == 204)
        // When stopped twice, concurrently and then again
        async let a: Void = server.stop()
        async let b: Void = server.stop()
        _ = await (a, b)
        await server.stop()
        // Then it is stopped: no URL, the open connection closed, new ones refused, and it cannot start again
        #expect(server.baseURL == nil)
        #expect(await client.readToEnd().ending == .closed)
        #if os(Linux)
        #expect(throws: RawHTTPClient.Failure.self) { try RawHTTPClient(url) }
        #endif
        await #expect {
            try await server.start()
        } throws: { error in
            (error as? MockServerError)?.code == .stopped
        }
    }

    @Test func stop_beforeStart_isHarmless() async {
        let server = HTTPServer { _ in .response(status: 204) }
        await server.stop()
        await server.stop()
        #expect(server.baseURL == nil)
    }

    @Test func start_withInvalidHost_throwsOneSentence() async {
        let server = HTTPServer(configuration: .init(host: "not a host")) { _ in .response(status: 204) }
        await #expect {
            try await server.start()
        } throws: { error in
            let error = error as? MockServerError
            return error?.code == .invalidHost && error?.description == "The host 'not a host' is not a numeric IPv4 or IPv6 address or 'localhost'."
        }
    }

    @Test func start_onAPortInUse_throwsCannotListen() async throws {
        try await withServer { _, url in
            let second = HTTPServer(configuration: .init(port: UInt16(url.port!))) { _ in .response(status: 204) }
            await #expect {
                try await second.start()
            } throws: { error in
                let error = error as? MockServerError
                return error?.code == .cannotListen && error?.description.contains("Address already in use") == true
            }
        }
    }

    @Test func stop_closesIdleKeepAliveConnections() async throws {
        // Given a keep-alive connection that has been answered and is now idle
        let server = HTTPServer { _ in .response(status: 200) }
        let client = try RawHTTPClient(try await server.start())
        try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try await client.readResponse()
        #expect(server.openConnectionCount == 1)
        // When the server stops
        await server.stop()
        // Then the client sees the connection end without further bytes
        let (bytes, ending) = await client.readToEnd(timeout: .seconds(10))
        #expect(bytes.isEmpty)
        #expect(ending != .timedOut)
    }

    @Test func releasingARunningServer_closesItsConnections() async throws {
        // Given a connection to a server that is then released without stop()
        var server: HTTPServer? = HTTPServer { _ in .response(status: 200) }
        let client = try RawHTTPClient(try await server!.start())
        try client.send("GET / HTTP/1.1\r\n\r\n")
        _ = try await client.readResponse()
        server = nil
        // Then the connection is closed in the background
        #expect(server == nil)
        #expect(await client.readToEnd(timeout: .seconds(10)).ending != .timedOut)
    }

    @Test(arguments: 1...3)
    func manyServers_inParallel_eachAnswerWithTheirOwnHandler(round: Int) async throws {
        // Given 24 servers started concurrently, each answering with its own number
        let count = 24
        try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<count {
                group.addTask {
                    try await withServer(respond: { _ in .response(status: 200, body: Data("server \(index)".utf8)) }) { _, url in
                        // When each is asked over its own connection, several times
                        let client = try RawHTTPClient(url)
                        var answers: [String] = []
                        for _ in 0..<3 {
                            try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                            answers.append(try await client.readResponse().bodyText)
                        }
                        return (index, Set(answers).count == 1 ? answers[0] : "mixed: \(answers)")
                    }
                }
            }
            // Then every server answered for itself only
            var seen = 0
            for try await (index, answer) in group {
                #expect(answer == "server \(index)")
                seen += 1
            }
            #expect(seen == count)
        }
    }

    @Test func ipv6Loopback_isSupportedWhenAvailable() async throws {
        let server = HTTPServer(configuration: .init(host: "::1")) { _ in .response(status: 204) }
        do {
            let url = try await server.start()
            #expect(url.absoluteString.hasPrefix("http://[::1]:"))
        } catch let error as MockServerError {
            // Machines without IPv6 cannot bind ::1; the error must say so plainly.
            #expect(error.code == .cannotListen)
        }
        await server.stop()
    }
}
