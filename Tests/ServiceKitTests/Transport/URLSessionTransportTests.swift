import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import Testing

/// URLSessionTransport over a real URLSession whose protocol answers in-process.
@Suite struct URLSessionTransportTests {
    @Test func send_returnsStatusHeadersAndBody() async throws {
        // Given a stub answering 201 with JSON and a Link header
        let (_, url) = StubURLProtocol.register(
            .respond(
                status: 201,
                headers: [
                    "Content-Type": "application/json", "Link": #"<https://x.test/p2>; rel="next""#,
                ], body: Data(#"{"id":"p_981"}"#.utf8)))
        let transport = URLSessionTransport(configuration: StubURLProtocol.configuration)
        // When a request is sent
        let response = try await transport.send(URLRequest(url: url.appendingPathComponent("photos")), uploadProgress: nil)
        // Then status, headers and body come back whole
        #expect(response.statusCode == 201)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.headers["Link"] == #"<https://x.test/p2>; rel="next""#)
        #expect(response.body == Data(#"{"id":"p_981"}"#.utf8))
    }

    @Test func send_withBody_uploadsItAsIs() async throws {
        let (stub, url) = StubURLProtocol.register(.respond(status: 200, headers: [:], body: Data()))
        let transport = URLSessionTransport(configuration: StubURLProtocol.configuration)
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data((0..<100_000).map { UInt8($0 % 251) })
        _ = try await transport.send(request, uploadProgress: nil)
        #expect(stub.receivedMethod == "POST")
        #expect(stub.receivedBody == request.httpBody)
    }

    @Test func send_failure_throwsTheSessionsURLError() async {
        let (_, url) = StubURLProtocol.register(.fail(URLError(.timedOut)))
        let transport = URLSessionTransport(configuration: StubURLProtocol.configuration)
        let error = await #expect(throws: URLError.self) {
            _ = try await transport.send(URLRequest(url: url), uploadProgress: nil)
        }
        #expect(error?.code == .timedOut)
    }

    @Test func cancellingTheTask_cancelsTheURLSessionTask() async throws {
        // Given a request the server never answers
        let (stub, url) = StubURLProtocol.register(.hang)
        let transport = URLSessionTransport(configuration: StubURLProtocol.configuration)
        let task = Task { try await transport.send(URLRequest(url: url), uploadProgress: nil) }
        for await _ in stub.started { break }
        // When the calling task is cancelled
        task.cancel()
        // Then URLSession stops the load and the call ends with URLError.cancelled
        let error = await #expect(throws: URLError.self) { _ = try await task.value }
        #expect(error?.code == .cancelled)
        #expect(stub.stops == 1)
    }

    @Test func alreadyCancelledTask_endsWithoutWaiting() async {
        let (_, url) = StubURLProtocol.register(.hang)
        let transport = URLSessionTransport(configuration: StubURLProtocol.configuration)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(URLRequest(url: url), uploadProgress: nil)
        }
        let error = await #expect(throws: URLError.self) { _ = try await task.value }
        #expect(error?.code == .cancelled)
    }

    @Test func client_overURLSession_mapsResponsesAndFailures() async throws {
        // Given a client whose default-style transport is a real URLSession
        let (_, okURL) = StubURLProtocol.register(
            .respond(
                status: 200, headers: ["Content-Type": "application/json"],
                body: Data(#"{"a":[1,null,2]}"#.utf8)))
        let (_, lostURL) = StubURLProtocol.register(.fail(URLError(.networkConnectionLost)))
        let transport = URLSessionTransport(configuration: StubURLProtocol.configuration)
        // Then a good response maps and a lost connection is network-level
        let value = try await WebServiceClient(baseURL: okURL, transport: transport).send(EchoService())
        #expect(value == ["a": [1, 2]])
        let error = await #expect(throws: WebServiceError.self) {
            try await WebServiceClient(baseURL: lostURL, transport: transport).send(EchoService())
        }
        #expect(error?.reason == .network(.connectionLost))
    }

    @Test func manySequentialCalls_eachCompleteOnce() async throws {
        let (_, url) = StubURLProtocol.register(.respond(status: 200, headers: [:], body: Data("{}".utf8)))
        let transport = URLSessionTransport(configuration: StubURLProtocol.configuration)
        for _ in 0..<50 {
            let response = try await transport.send(URLRequest(url: url), uploadProgress: nil)
            #expect(response.statusCode == 200)
        }
    }
}

@Suite struct URLSessionTransportLifetimeTests {
    @Test func transport_isReleasedAfterUse_soItsSessionIsInvalidated() async throws {
        // Given a transport that has completed a request
        let (_, url) = StubURLProtocol.register(.respond(status: 204, headers: [:], body: Data()))
        weak var released: URLSessionTransport?
        do {
            let transport = URLSessionTransport(configuration: StubURLProtocol.configuration)
            released = transport
            _ = try await transport.send(URLRequest(url: url), uploadProgress: nil)
        }
        // Then nothing (no delegate cycle) keeps it alive: deinit ran and invalidated the session
        #expect(released == nil)
    }

    @Test func client_defaultsToAURLSessionTransport() {
        let client = WebServiceClient(baseURL: URL(string: "https://api.example.test")!)
        #expect(client.transport is URLSessionTransport)
    }
}

/// URLSessionTransport's streaming, through a real URLSession whose protocol sends the body in parts.
@Suite struct URLSessionTransportStreamTests {
    private static let sse = ["Content-Type": "text/event-stream"]

    @Test func stream_deliversTheFirstEvent_beforeTheNextPartIsSent() async throws {
        // GIVEN a server that sends its second event only when the test says so
        let (stub, url) = StubURLProtocol.register(
            .stream(
                status: 200, headers: Self.sse,
                parts: [
                    Data("data: one\n\n".utf8), Data("data: two\n\n".utf8),
                ], failure: nil))
        let client = WebServiceClient(baseURL: url, transport: URLSessionTransport(configuration: StubURLProtocol.configuration))
        var iterator = client.events(of: TextStreamService()).makeAsyncIterator()
        // WHEN the first event is read, THEN it arrives while the second is still held back
        #expect(try await iterator.next() == "one")
        stub.release()
        #expect(try await iterator.next() == "two")
        stub.release()
        #expect(try await iterator.next() == nil)
    }

    @Test func stream_brokenAfterAnEvent_isConnectionLost() async throws {
        let (stub, url) = StubURLProtocol.register(
            .stream(
                status: 200, headers: Self.sse,
                parts: [
                    Data("data: one\n\n".utf8), Data("data: cu".utf8),
                ], failure: URLError(.networkConnectionLost)))
        let client = WebServiceClient(baseURL: url, transport: URLSessionTransport(configuration: StubURLProtocol.configuration))
        var iterator = client.events(of: TextStreamService()).makeAsyncIterator()
        #expect(try await iterator.next() == "one")
        stub.release()
        stub.release()
        await #expect(throws: WebServiceError.network(.connectionLost)) { _ = try await iterator.next() }
    }

    @Test func cancellingTheConsumer_stopsTheLoad() async throws {
        // GIVEN a consumer that has the first event of a stream that never finishes on its own
        let (stub, url) = StubURLProtocol.register(
            .stream(
                status: 200, headers: Self.sse,
                parts: [
                    Data("data: one\n\n".utf8), Data("data: never\n\n".utf8),
                ], failure: nil))
        let client = WebServiceClient(baseURL: url, transport: URLSessionTransport(configuration: StubURLProtocol.configuration))
        let (firstEvent, firstEventContinuation) = AsyncStream.makeStream(of: String.self)
        let consumer = Task {
            for try await event in client.events(of: TextStreamService()) {
                firstEventContinuation.yield(event)
            }
        }
        for await _ in firstEvent { break }
        // WHEN its task is cancelled
        consumer.cancel()
        // THEN the call ends as cancelled and URLSession stopped loading
        await #expect(throws: WebServiceError.network(.cancelled)) { try await consumer.value }
        for await _ in stub.stopped { break }
        #expect(stub.stops == 1)
    }
}
