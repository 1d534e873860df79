import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import ServiceKit
import ExampleServices
import Testing

/// Client timeouts against a real server over loopback, on a `VirtualClock` the server and the client share:
/// the fault's wait and the timeout are compared on the clock, so each outcome and its virtual time are exact,
/// whatever the machine's load, and nothing waits in real time. One test keeps the real clock, with a lower
/// bound only (how late a real timer fires depends on the load: under ThreadSanitizer a 0.5 s stall once ended
/// after 32 s).
@Suite struct TimeoutReplayTests {
    /// `GET /ping` → `{"ok": true}`.
    struct PingService: WebService {
        var endpoint: String { "/ping" }
        func response(from json: JSON) throws -> Bool { try json["ok"].required.bool }
    }

    static let ping = Cassette(name: "ping", interactions: [.stub("GET", "/ping", json: ["ok": true])])
    static let question = ChatCompletionsService(model: "gpt-4o-mini", messages: [.user("Say hello.")])

    /// How a call ended, and how long it took on the shared virtual clock (`nil` on the real clock).
    struct Timed<Value: Sendable>: Sendable {
        var result: Result<Value, WebServiceError>
        var elapsed: Duration
        /// Answers the server on the clock had to give in real time.
        var realTimeAnswers = 0
    }

    /// One `PingService` call with `timeout` against a strict server under `faults`, both on one virtual clock
    /// (or, with `clock: nil`, the server on the real clock, the call timed with a `ContinuousClock`; the client's
    /// clock is `clientClock` when given).
    private func ping(
        timeout: TimeInterval, faults: String, clock: VirtualClock? = VirtualClock(), clientClock: (any ServiceClock)? = nil
    ) async throws -> Timed<Bool> {
        var configuration = CassetteServer.Configuration(faults: .specs(faults), strict: true)
        configuration.clock = clock
        return try await withMockServer(cassettes: [Self.ping], configuration: configuration) { server in
            let client = WebServiceClient(
                baseURL: try server.baseURL.orThrow("no base URL"), configuration: .init(timeout: timeout, clock: clientClock ?? clock ?? SystemClock()),
                transport: URLSessionTransport())
            let start = ContinuousClock.now
            let result: Result<Bool, WebServiceError>
            do throws(WebServiceError) {
                result = .success(try await client.send(PingService()))
            } catch {
                result = .failure(error)
            }
            return Timed(result: result, elapsed: clock?.elapsed ?? ContinuousClock.now - start, realTimeAnswers: clock?.realTimeAnswers ?? 0)
        }
    }

    /// The chat stream's deltas with `timeout` under `faults`, in recorded timing (parts 60 ms apart, the last
    /// two together at 600 ms), on one virtual clock, and the error it ended with (after `deltasBeforeFailure`
    /// deltas).
    private func chat(timeout: TimeInterval, faults: String, deltasBeforeFailure: Int = 2) async throws -> Timed<[String]> {
        let cassettes = try RecordingsFolder.cassettes(named: "chat/completions", in: Recordings.folder)
        let clock = VirtualClock()
        var configuration = CassetteServer.Configuration(faults: .specs(faults), strict: true, streamTiming: .recorded)
        configuration.clock = clock
        return try await withMockServer(cassettes: cassettes, configuration: configuration) { server in
            let baseURL = try server.baseURL.orThrow("no base URL").appendingPathComponent("v1")
            let client = WebServiceClient(baseURL: baseURL, configuration: .init(timeout: timeout, clock: clock), transport: URLSessionTransport())
            var received: [String] = []
            do throws(WebServiceError) {
                for try await delta in client.events(of: Self.question) {
                    received.append(delta.content ?? "")
                }
                return Timed(result: .success(received), elapsed: clock.elapsed, realTimeAnswers: clock.realTimeAnswers)
            } catch {
                #expect(received.count == deltasBeforeFailure, "the deltas before the stall arrive first")
                return Timed(result: .failure(error), elapsed: clock.elapsed, realTimeAnswers: clock.realTimeAnswers)
            }
        }
    }

    @Test(arguments: [0.5, 1.5])
    func stalledServer_failsAsTimedOut_exactlyAtTheTimeout(timeout: TimeInterval) async throws {
        // GIVEN a server that never answers, WHEN a call with a fractional timeout is made on a shared clock
        let call = try await ping(timeout: timeout, faults: "stall")
        // THEN it fails as timed out when the timeout has passed on the clock, neither sooner nor later
        #expect(call.result.failure?.reason == .network(.timedOut))
        #expect(call.elapsed == .milliseconds(Int(timeout * 1000)))
        #expect(call.realTimeAnswers == 0)
    }

    @Test func stalledServer_onTheRealClock_failsAsTimedOut_noSoonerThanTheTimeout() async throws {
        // GIVEN a server that never answers, WHEN a call with a 0.5 s timeout is made on the real clock
        let call = try await ping(timeout: 0.5, faults: "stall", clock: nil)
        // THEN it fails as timed out, and not before the timeout has passed
        #expect(call.result.failure?.reason == .network(.timedOut))
        #expect(call.elapsed >= .milliseconds(500))
    }

    /// The case a real clock cannot decide: a latency just inside or just outside the timeout.
    @Test(arguments: [(800, true), (999, true), (1000, true), (1001, false), (1200, false)])
    func latencyNearTheTimeout_answersOnlyWithinIt(latency: Int, answers: Bool) async throws {
        // GIVEN a server that answers after `latency` ms, WHEN a client with a 1 s timeout asks
        let call = try await ping(timeout: 1, faults: "latency=\(latency)ms")
        if answers {
            // THEN within the timeout (an answer at the very deadline counts as in time) it gets the answer then
            #expect(try call.result.get() == true)
            #expect(call.elapsed == .milliseconds(latency))
        } else {
            // THEN beyond it, the call times out at the timeout
            #expect(call.result.failure?.reason == .network(.timedOut))
            #expect(call.elapsed == .seconds(1))
        }
    }

    @Test func throttledAnswer_arrivesAfterItsSlices_withinTheTimeout() async throws {
        // GIVEN an answer dripped at 20 bytes per second (one byte every 50 ms), WHEN a client with a 1 s timeout asks
        let call = try await ping(timeout: 1, faults: "throttle=20B/s")
        // THEN each slice is progress, so it answers although the whole answer takes several seconds on the clock
        #expect(try call.result.get() == true)
        #expect(call.elapsed > .seconds(1))
    }

    @Test func stalledStream_failsAsTimedOut_oneTimeoutAfterItsLastEvent() async throws {
        // GIVEN a stream that stops after two events (at 0 and 60 ms), WHEN read with a 0.5 s timeout
        let call = try await chat(timeout: 0.5, faults: "stall=event:2")
        // THEN it fails as timed out after those events, 0.5 s after the second
        #expect(call.result.failure?.reason == .network(.timedOut))
        #expect(call.elapsed == .milliseconds(560))
    }

    @Test func streamStalledAfterItsHead_failsAsTimedOut_oneTimeoutAfterTheHead() async throws {
        // GIVEN a stream whose head arrives and then nothing, WHEN read with a 1 s timeout
        let call = try await chat(timeout: 1, faults: "stall=event:0", deltasBeforeFailure: 0)
        // THEN it fails as timed out one timeout after the head, not two
        #expect(call.result.failure?.reason == .network(.timedOut))
        #expect(call.elapsed == .seconds(1))
    }

    @Test func streamLongerThanTheTimeout_isReadWhole_whileEachEventComesSooner() async throws {
        // GIVEN a stream spread over 1.7 s (the recorded 60 ms between events, plus 100 ms before each)
        let call = try await chat(timeout: 0.9, faults: "event-latency=100ms")
        // THEN a 0.9 s timeout bounds each wait for the next event, not the whole stream
        #expect(try call.result.get().joined() == "Hello! How can I help you today?")
        #expect(call.elapsed == .milliseconds(1700))
    }

    @Test func streamWithAGapBeyondTheTimeout_failsAsTimedOut_afterTheEventsBeforeIt() async throws {
        // GIVEN a stream with 1 s before each event, WHEN read with a 0.9 s timeout
        let call = try await chat(timeout: 0.9, faults: "event-latency=1000ms", deltasBeforeFailure: 1)
        // THEN the first event (at 0 ms) arrives, and the wait for the second (at 1.06 s) times out at 0.9 s
        #expect(call.result.failure?.reason == .network(.timedOut))
        #expect(call.elapsed == .milliseconds(900))
    }

    @Test func retryAfterA503_waitsOnTheSharedClock() async throws {
        // GIVEN a server that answers 503 (Retry-After: 1) once, and a client that retries, on one clock
        let clock = VirtualClock()
        var configuration = CassetteServer.Configuration(faults: .specs("status=503,when=first:1"), strict: true)
        configuration.clock = clock
        let value = try await withMockServer(cassettes: [Self.ping], configuration: configuration) { server in
            let client = WebServiceClient(
                baseURL: try server.baseURL.orThrow("no base URL"),
                configuration: .init(timeout: 1, retryPolicy: RetryPolicy(maxAttempts: 2), clock: clock), transport: URLSessionTransport())
            return try await client.send(PingService())
        }
        // THEN the retry's wait is the clock's time, and nothing else took any
        #expect(value == true)
        #expect(clock.sleeps.count == 1)
        #expect(clock.elapsed == .milliseconds(Int((clock.sleeps[0] * 1000).rounded())))
    }

    @Test func requestFromAClientNotOnTheClock_isAnsweredInRealTime_andCounted() async throws {
        // GIVEN a server on a virtual clock, WHEN a plain URLSession (which the clock cannot see) asks under a latency
        let clock = VirtualClock()
        var configuration = CassetteServer.Configuration(faults: .specs("latency=50ms"), strict: true)
        configuration.clock = clock
        let elapsed = try await withMockServer(cassettes: [Self.ping], configuration: configuration) { server in
            let url = try server.baseURL.orThrow("no base URL").appendingPathComponent("ping")
            let session = URLSession(configuration: .ephemeral)
            defer { session.finishTasksAndInvalidate() }
            let start = ContinuousClock.now
            let (_, response) = try await session.data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            return ContinuousClock.now - start
        }
        // THEN the delay is real, the clock did not move, and the clock counts the answer as given in real time
        #expect(elapsed >= .milliseconds(50))
        #expect(clock.elapsed == .zero)
        #expect(clock.realTimeAnswers == 1)
    }

    @Test func transferToAServerNotOnTheClock_timesOutInRealTime() async throws {
        // GIVEN a client whose clock a running server shares, WHEN it calls another server, not on the clock, that stalls
        let clock = VirtualClock()
        var onClock = CassetteServer.Configuration(faults: .none)
        onClock.clock = clock
        onClock.expectsRequests = false
        let call = try await withMockServer(cassettes: [Self.ping], configuration: onClock) { _ in
            try await ping(timeout: 0.5, faults: "stall", clock: nil, clientClock: clock)
        }
        // THEN the server never takes the transfer up on the clock, so it times out on the real clock, not before
        #expect(call.result.failure?.reason == .network(.timedOut))
        #expect(call.elapsed >= .milliseconds(500))
        #expect(clock.elapsed == .zero)
    }

    @Test func transferHeader_neverReachesTheJournal() async throws {
        // GIVEN a client and a server on one clock
        let clock = VirtualClock()
        var configuration = CassetteServer.Configuration(faults: .none, strict: true)
        configuration.clock = clock
        let headers = try await withMockServer(cassettes: [Self.ping], configuration: configuration) { server in
            let client = WebServiceClient(
                baseURL: try server.baseURL.orThrow("no base URL"), configuration: .init(clock: clock), transport: URLSessionTransport())
            _ = try await client.send(PingService())
            return server.journal.entries.map { $0.request.headers.contains(VirtualClock.transferHeader) }
        }
        // THEN the request matched, and the header that named its transfer was the server's to remove
        #expect(headers == [false])
    }
}

extension Result {
    /// The error, or `nil` on success.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
