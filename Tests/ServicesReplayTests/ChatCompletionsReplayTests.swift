import Foundation
@testable import MockServer
import ServiceKit
import ExampleServices
import Testing

/// ChatCompletionsService against the hand-written streaming cassette, through real loopback HTTP.
@Suite struct ChatCompletionsReplayTests {
    static let question = ChatCompletionsService(model: "gpt-4o-mini", messages: [.user("Say hello.")])
    static let answer = "Hello! How can I help you today?"
    /// The recorded contents of the deltas in order (the first only names the role, the last only says why
    /// the answer ended).
    static let contents = ["", "Hello", "!", " How", " can", " I", " help", " you", " today", "?", ""]

    /// Runs `body` with a strict server replaying `chat/completions` and a client whose base URL ends in `/v1`.
    private func withChat<T>(
        faults: CassetteServer.FaultSource, timing: StreamTiming = .instant,
        timeout: TimeInterval = ReplayTimeout.answer,
        _ body: (CassetteServer, WebServiceClient) async throws -> T
    ) async throws -> T {
        let cassettes = try RecordingsFolder.cassettes(named: "chat/completions", in: Recordings.folder)
        let configuration = CassetteServer.Configuration(faults: faults, strict: true, streamTiming: timing)
        return try await withMockServer(cassettes: cassettes, configuration: configuration) { server in
            let baseURL = try server.baseURL.orThrow("no base URL").appendingPathComponent("v1")
            let client = WebServiceClient(baseURL: baseURL, configuration: .init(timeout: timeout), transport: URLSessionTransport())
            return try await body(server, client)
        }
    }

    /// The deltas' contents received, and the error the stream ended with.
    private func read(_ client: WebServiceClient) async -> ([String], WebServiceError?) {
        var received: [String] = []
        do {
            for try await delta in client.events(of: Self.question) {
                received.append(delta.content ?? "")
            }
            return (received, nil)
        } catch {
            return (received, error)
        }
    }

    @Test func stream_assemblesTheWholeAnswer() async throws {
        try await withChat(faults: .none) { server, client in
            var deltas: [ChatCompletionDelta] = []
            for try await delta in client.events(of: Self.question) {
                deltas.append(delta)
            }
            #expect(deltas.compactMap(\.content).joined() == Self.answer)
            #expect(deltas.first?.role == "assistant")
            #expect(deltas.last?.finishReason == "stop")
            #expect(server.journal.entries.count == 1)
        }
    }

    @Test func recordedTiming_spreadsTheEventsOverTime() async throws {
        // GIVEN the cassette's timing: the last delta 600 ms into the response
        try await withChat(faults: .none, timing: .recorded) { _, client in
            let clock = ContinuousClock()
            let start = clock.now
            var arrivals: [ContinuousClock.Instant] = []
            for try await _ in client.events(of: Self.question) {
                arrivals.append(clock.now)
            }
            // THEN the last one arrives no sooner (the server never sends a part early; a lower bound only,
            // since a busy machine may hand several parts over together)
            #expect(arrivals.count == Self.contents.count)
            #expect(try #require(arrivals.last) - start >= .milliseconds(600))
        }
    }

    struct FaultCase: Sendable, CustomTestStringConvertible {
        let spec: String
        let received: [String]
        let error: WebServiceError?
        var timeout: TimeInterval = ReplayTimeout.answer
        var testDescription: String { spec }
    }

    static let faultCases: [FaultCase] = [
        // Stream faults: the deltas before the break, then the error.
        FaultCase(spec: "truncate=event:3", received: Array(contents.prefix(3)), error: .network(.connectionLost)),
        FaultCase(spec: "stall=event:2", received: Array(contents.prefix(2)), error: .network(.timedOut), timeout: ReplayTimeout.stall),
        FaultCase(
            spec: "error-event=server_error,after=4", received: Array(contents.prefix(4)),
            error: .service(
                .errorPayload(
                    code: "server_error",
                    message: "The server had an error while processing your request. Sorry about that!"))),
        FaultCase(spec: "event-latency=5ms", received: contents, error: nil),
        // Faults that existed before streams, on a stream.
        FaultCase(spec: "latency=50ms", received: contents, error: nil),
        FaultCase(spec: "throttle=64KB/s", received: contents, error: nil),
        FaultCase(spec: "reset", received: [], error: .network(.connectionLost)),
        FaultCase(spec: "status=503", received: [], error: .service(.httpStatus(503, message: "Service Unavailable"))),
        FaultCase(
            spec: "service-error=invalid_api_key", received: [],
            error: .service(
                .httpStatus(401, message: "Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys."))),
        FaultCase(spec: "service-error=rate_limit_exceeded", received: [], error: .service(.rateLimited(retryAfter: 20))),
        FaultCase(spec: "truncate=body:300", received: [""], error: .network(.connectionLost)),
        // The first half of the body arrives whole: five complete events.
        FaultCase(spec: "malformed-chunk", received: Array(contents.prefix(5)), error: .network(.connectionLost)),
        FaultCase(spec: "content-type=text/html", received: [], error: .service(.wrongContentType("text/html"))),
    ]

    @Test(arguments: faultCases)
    func fault_endsWithTheMappedError_afterTheDeltasBeforeIt(_ fault: FaultCase) async throws {
        try await withChat(faults: .specs(fault.spec), timeout: fault.timeout) { _, client in
            let (received, error) = await read(client)
            #expect(received == fault.received)
            #expect(error == fault.error)
        }
    }

    @Test func streamRecordedAsBroken_isConnectionLost_afterTheDeltasThatArrived() async throws {
        // GIVEN the cassette's stream as an upstream that broke it after three events would have recorded it
        var cassettes = try RecordingsFolder.cassettes(named: "chat/completions", in: Recordings.folder)
        for index in cassettes[0].interactions.indices {
            guard case .response(var response) = cassettes[0].interactions[index].outcome,
                case .stream(var stream) = response.body.form
            else { continue }
            stream.parts = Array(stream.parts.prefix(3))
            stream.ending = .broken
            response.body = .stream(stream)
            cassettes[0].interactions[index].outcome = .response(response)
        }
        let configuration = CassetteServer.Configuration(faults: .none, strict: true, streamTiming: .instant)
        try await withMockServer(cassettes: cassettes, configuration: configuration) { server in
            let client = WebServiceClient(
                baseURL: try server.baseURL.orThrow("no base URL").appendingPathComponent("v1"),
                configuration: .init(timeout: ReplayTimeout.answer), transport: URLSessionTransport())
            // WHEN it is replayed
            let (received, error) = await read(client)
            // THEN the client gets those deltas, then a network-level connectionLost
            #expect(received == Array(Self.contents.prefix(3)))
            #expect(error == .network(.connectionLost))
        }
    }

    @Test func cancellingAfterTheFirstDelta_closesTheConnection() async throws {
        // GIVEN a stream the server holds open after its first event
        try await withChat(faults: .specs("stall=event:1")) { server, client in
            let (firstDelta, firstDeltaContinuation) = AsyncStream.makeStream(of: String.self)
            let consumer = Task {
                for try await delta in client.events(of: Self.question) {
                    firstDeltaContinuation.yield(delta.content ?? "")
                }
            }
            for await _ in firstDelta { break }
            #expect(server.openConnectionCount == 1)
            // WHEN the consuming task is cancelled
            consumer.cancel()
            await #expect(throws: WebServiceError.network(.cancelled)) { try await consumer.value }
            // THEN the connection closes; the server notices on its own (polled, bounded at 10 s)
            var open = server.openConnectionCount
            for _ in 0..<500 where open > 0 {
                try await Task.sleep(for: .milliseconds(20))
                open = server.openConnectionCount
            }
            #expect(open == 0)
        }
    }
}
