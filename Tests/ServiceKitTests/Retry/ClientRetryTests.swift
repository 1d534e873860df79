import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ServiceKitTesting
import Testing

/// Retries through the client on a virtual clock: nothing here sleeps.
@Suite struct ClientRetryTests {
    let policy = RetryPolicy(maxAttempts: 3, initialDelay: 0.5, multiplier: 2, jitter: 0)

    @Test func networkFailures_areRetriedWithBackoff_thenSucceed() async throws {
        // Given two timeouts and then an answer
        let transport = ScriptedTransport(
            .fail(URLError(.timedOut)), .fail(URLError(.networkConnectionLost)),
            .json(["ok": true]))
        let clock = VirtualClock()
        // When a GET is sent with a retry policy
        let value = try await makeClient(transport, retryPolicy: policy, clock: clock).send(EchoService())
        // Then it succeeded on the third attempt after waiting 0.5 s and 1 s on the injected clock
        #expect(value == ["ok": true])
        #expect(transport.requests.count == 3)
        #expect(clock.sleeps == [0.5, 1])
    }

    @Test func status503_honoursRetryAfterSeconds() async throws {
        let transport = ScriptedTransport(
            .json(["message": "busy"], status: 503, headers: [("Retry-After", "2")]),
            .json(["ok": true]))
        let clock = VirtualClock()
        _ = try await makeClient(transport, retryPolicy: policy, clock: clock).send(EchoService())
        #expect(clock.sleeps == [2])
    }

    @Test func status429_honoursRetryAfterHTTPDate() async throws {
        // Given a 429 asking to come back 30 s after the virtual now
        let clock = VirtualClock(now: Date(timeIntervalSince1970: 784_111_777))  // Sun, 06 Nov 1994 08:49:37 GMT
        let transport = ScriptedTransport(
            .json([:], status: 429, headers: [("Retry-After", "Sun, 06 Nov 1994 08:50:07 GMT")]),
            .json(["ok": true]))
        // When it is sent
        _ = try await makeClient(transport, retryPolicy: policy, clock: clock).send(EchoService())
        // Then the client waited exactly 30 s of virtual time
        #expect(clock.sleeps == [30])
        #expect(transport.requests.count == 2)
    }

    @Test func exhaustedAttempts_reportTheLastError() async {
        let transport = ScriptedTransport(.json(["message": "down"], status: 503))
        let clock = VirtualClock()
        let error = await #expect(throws: WebServiceError.self) {
            try await makeClient(transport, retryPolicy: policy, clock: clock).send(EchoService())
        }
        #expect(error?.reason == .service(.httpStatus(503, message: "down")))
        #expect(transport.requests.count == 3)
        #expect(clock.sleeps == [0.5, 1])
    }

    @Test func post_isNeverRetried() async {
        let transport = ScriptedTransport(.fail(URLError(.networkConnectionLost)), .json(["ok": true]))
        let clock = VirtualClock()
        let error = await #expect(throws: WebServiceError.self) {
            try await makeClient(transport, retryPolicy: policy, clock: clock)
                .send(EchoService(method: .post, parameterEncoding: .json))
        }
        #expect(error?.reason == .network(.connectionLost))
        #expect(transport.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func serviceErrorsOtherThan503And429_areNotRetried() async {
        let transport = ScriptedTransport(.json(["message": "Not Found"], status: 404), .json(["ok": true]))
        _ = await #expect(throws: WebServiceError.self) {
            try await makeClient(transport, retryPolicy: policy).send(EchoService())
        }
        #expect(transport.requests.count == 1)
    }

    @Test(arguments: [
        (412, WebServiceError.Service.preconditionFailed), (304, .notModified),
    ])
    func conditionalAnswers_reachTheCallerAtOnce_withTheirStatus(status: Int, expected: WebServiceError.Service) async {
        // Given a PUT (idempotent, so retryable) answered 412 or 304, then a success that must not be asked for
        let transport = ScriptedTransport(.respond(.text("", status: status, contentType: "application/json")), .json(["ok": true]))
        let clock = VirtualClock()
        // When it is sent with a retry policy
        let error = await #expect(throws: WebServiceError.self) {
            try await makeClient(transport, retryPolicy: policy, clock: clock).send(EchoService(method: .put, parameterEncoding: .json))
        }
        // Then the case of its own arrives after one attempt, with the status kept
        #expect(error?.reason == .service(expected))
        #expect(error?.statusCode == status)
        #expect(transport.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func retryAfterBeyondTheLimit_endsWithRateLimited() async {
        // Given a 429 asking for an hour
        let transport = ScriptedTransport(.json([:], status: 429, headers: [("Retry-After", "3600")]))
        let clock = VirtualClock()
        // When it is sent with the default 60 s limit
        let error = await #expect(throws: WebServiceError.self) {
            try await makeClient(transport, retryPolicy: policy, clock: clock).send(EchoService())
        }
        // Then the client does not wait and reports the delay
        #expect(error?.reason == .service(.rateLimited(retryAfter: 3600)))
        #expect(clock.sleeps.isEmpty)
    }

    @Test func noPolicy_neverRetries() async {
        let transport = ScriptedTransport(.fail(URLError(.timedOut)), .json(["ok": true]))
        _ = await #expect(throws: WebServiceError.self) { try await makeClient(transport).send(EchoService()) }
        #expect(transport.requests.count == 1)
    }

    @Test func cancellationDuringRetries_stopsWithCancelled() async {
        // Given a first attempt that times out and a second that hangs
        let transport = ScriptedTransport(.fail(URLError(.timedOut)), .hangUntilCancelled, .json(["ok": true]))
        let client = makeClient(transport, retryPolicy: RetryPolicy(maxAttempts: 5, jitter: 0))
        let task = Task { try await client.send(EchoService()) }
        for await count in transport.started where count == 2 { break }
        // When the caller cancels during the second attempt
        task.cancel()
        // Then the call ends as cancelled with no further attempt
        await #expect(throws: WebServiceError.network(.cancelled)) { try await task.value }
        #expect(transport.requests.count == 2)
    }

    @Test func cancellationDuringTheWait_stopsWithCancelled() async {
        // Given a clock whose wait only ends by cancellation, and a failing first attempt
        let clock = WaitingClock()
        let transport = ScriptedTransport(.fail(URLError(.timedOut)), .json(["ok": true]))
        let client = WebServiceClient(
            baseURL: URL(string: "https://x.test")!,
            configuration: .init(retryPolicy: policy, clock: clock), transport: transport)
        let task = Task { try await client.send(EchoService()) }
        for await _ in clock.waiting { break }
        // When the caller cancels while the client waits to retry
        task.cancel()
        // Then no second attempt is made
        await #expect(throws: WebServiceError.network(.cancelled)) { try await task.value }
        #expect(transport.requests.count == 1)
    }
}

/// A clock whose sleep announces itself and then waits for cancellation (at most 60 s).
final class WaitingClock: ServiceClock {
    let waiting: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (waiting, continuation) = AsyncStream.makeStream()
    }

    var now: Date { Date(timeIntervalSince1970: 0) }

    func sleep(for seconds: TimeInterval) async throws {
        continuation.yield()
        try await Task.sleep(for: .seconds(60))
    }
}
