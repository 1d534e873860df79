import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ServiceKitTesting
import Testing

/// A stream service whose events are the data text; `[END]` ends it when the marker is required.
struct TextStreamService: StreamingService {
    var endpoint = "/events"
    var requiresEndOfStream = false

    func event(from message: ServerSentEvent) throws -> String? {
        message.data == "skip" ? nil : message.data
    }

    func isEndOfStream(_ message: ServerSentEvent) -> Bool { message.data == "[END]" }
}

@Suite struct EventStreamTests {
    private func client(_ transport: StreamingTransport) -> WebServiceClient {
        WebServiceClient(baseURL: URL(string: "https://api.example.test/v1")!, transport: transport)
    }

    /// Reads the stream to its end and returns the events and the error it ended with.
    private func collect<S: StreamingService>(_ stream: EventStream<S>) async -> ([S.Event], WebServiceError?) {
        var events: [S.Event] = []
        do {
            for try await event in stream {
                events.append(event)
            }
            return (events, nil)
        } catch {
            return (events, error)
        }
    }

    @Test func events_arriveAsSent_andTheSequenceEndsWithTheResponse() async throws {
        // GIVEN a stream whose second event is split over two chunks
        let transport = StreamingTransport()
        var iterator = client(transport).events(of: TextStreamService()).makeAsyncIterator()
        transport.send("data: one\n\ndata: t")
        // WHEN the first event is read, before the rest was sent
        #expect(try await iterator.next() == "one")
        transport.send("wo\n\ndata: skip\n\n: comment\n\n")
        #expect(try await iterator.next() == "two")
        transport.end()
        // THEN the skipped event is not delivered and the end of the response ends the sequence
        #expect(try await iterator.next() == nil)
        #expect(try await iterator.next() == nil)
        let request = try #require(transport.requests.first)
        #expect(request.url?.absoluteString == "https://api.example.test/v1/events")
        #expect(request.value(forHTTPHeaderField: "Accept") == "text/event-stream")
    }

    @Test func brokenStream_isConnectionLost_afterTheEventsDelivered() async {
        let transport = StreamingTransport()
        transport.send("data: one\n\ndata: two\n\ndata: cut")
        transport.fail(URLError(.unknown))
        let (events, error) = await collect(client(transport).events(of: TextStreamService()))
        #expect(events == ["one", "two"])
        #expect(error == .network(.connectionLost))
        #expect((error?.underlyingError as? URLError)?.code == .unknown)
    }

    @Test func stalledStream_timedOut_staysTimedOut() async {
        let transport = StreamingTransport()
        transport.send("data: one\n\n")
        transport.fail(URLError(.timedOut))
        let (events, error) = await collect(client(transport).events(of: TextStreamService()))
        #expect(events == ["one"])
        #expect(error == .network(.timedOut))
    }

    @Test func errorEvent_isServiceLevel_afterTheEventsDelivered_andStopsTheTransfer() async {
        let transport = StreamingTransport()
        transport.send("data: one\n\nevent: error\ndata: {\"error\":{\"code\":\"overloaded\",\"message\":\"Try later\"}}\n\n")
        let (events, error) = await collect(client(transport).events(of: TextStreamService()))
        #expect(events == ["one"])
        #expect(error == .service(.errorPayload(code: "overloaded", message: "Try later")))
        #expect(error?.statusCode == 200)
        for await _ in transport.stops { break }
        #expect(transport.stopped)
    }

    @Test func endMarker_endsTheSequence_andStopsTheTransfer() async {
        let transport = StreamingTransport()
        transport.send("data: one\n\ndata: [END]\n\ndata: after\n\n")
        let (events, error) = await collect(client(transport).events(of: TextStreamService(requiresEndOfStream: true)))
        #expect(events == ["one"])
        #expect(error == nil)
        for await _ in transport.stops { break }
        #expect(transport.stopped)
    }

    @Test func requiredEndMarkerMissing_isConnectionLost() async {
        let transport = StreamingTransport()
        transport.send("data: one\n\n")
        transport.end()
        let (events, error) = await collect(client(transport).events(of: TextStreamService(requiresEndOfStream: true)))
        #expect(events == ["one"])
        #expect(error == .network(.connectionLost))
    }

    @Test func cancellingTheConsumer_throwsCancelled_andStopsTheTransfer() async throws {
        // GIVEN a consumer that has received the first event of an endless stream
        let transport = StreamingTransport()
        let client = client(transport)
        let (firstEvent, firstEventContinuation) = AsyncStream.makeStream(of: String.self)
        let consumer = Task {
            var iterator = client.events(of: TextStreamService()).makeAsyncIterator()
            while let event = try await iterator.next() {
                firstEventContinuation.yield(event)
            }
        }
        transport.send("data: one\n\n")
        for await event in firstEvent {
            #expect(event == "one")
            break
        }
        // WHEN its task is cancelled
        consumer.cancel()
        // THEN the call ends as cancelled and the transfer is stopped
        await #expect(throws: WebServiceError.network(.cancelled)) { try await consumer.value }
        for await _ in transport.stops { break }
        #expect(transport.stopped)
    }

    @Test(
        arguments: [
            (
                401, ["Content-Type": "application/json"],
                #"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}"#,
                WebServiceError.service(.httpStatus(401, message: "Incorrect API key provided"))
            ),
            (
                429, ["Content-Type": "application/json", "Retry-After": "3"], #"{"error":{"message":"Rate limit reached"}}"#,
                .service(.rateLimited(retryAfter: 3))
            ),
            (
                200, ["Content-Type": "application/json"], #"{"error":{"message":"no","code":"bad"}}"#,
                .service(.errorPayload(code: "bad", message: "no"))
            ),
            (200, ["Content-Type": "text/html; charset=utf-8"], "<html></html>", .service(.wrongContentType("text/html"))),
        ] as [(Int, ResponseHeaders, String, WebServiceError)])
    func answerThatIsNotAStream_isServiceLevel(
        status: Int, headers: ResponseHeaders, body: String,
        expected: WebServiceError
    ) async {
        let transport = StreamingTransport(status: status, headers: headers)
        transport.send(body)
        transport.end()
        let (events, error) = await collect(client(transport).events(of: TextStreamService()))
        #expect(events.isEmpty)
        #expect(error == expected)
        #expect(error?.statusCode == status)
    }

    @Test func transportFailureBeforeTheStream_isMappedByTheService() async {
        let client = WebServiceClient(
            baseURL: URL(string: "https://api.example.test")!,
            transport: ScriptedTransport(.fail(URLError(.cannotConnectToHost))))
        let (events, error) = await collect(client.events(of: TextStreamService()))
        #expect(events.isEmpty)
        #expect(error == .network(.cannotConnect))
    }

    @Test func defaultStreamOfAWholeTransport_deliversEveryEvent() async {
        // A transport without its own streaming hands the whole body over as one chunk.
        let transport = ScriptedTransport(
            .respond(
                TransportResponse(
                    statusCode: 200, headers: ["Content-Type": "text/event-stream"], body: Data("data: a\n\ndata: b\n\n".utf8))))
        let client = WebServiceClient(baseURL: URL(string: "https://api.example.test")!, transport: transport)
        let (events, error) = await collect(client.events(of: TextStreamService()))
        #expect(events == ["a", "b"])
        #expect(error == nil)
    }
}
