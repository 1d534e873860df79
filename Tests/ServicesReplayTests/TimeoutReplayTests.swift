import Foundation
@testable import MockServer
import ServiceKit
import ExampleServices
import Testing

/// Fractional client timeouts against a real server over loopback: ServiceKit keeps its own deadline to the
/// millisecond, whatever URLSession makes of fractions (FoundationNetworking cuts them to whole seconds).
/// Lower bounds are exact (the deadline never fires early). No upper bound is asserted: how late a timer
/// fires depends on the machine's load (under ThreadSanitizer, in the full suite, a 0.5 s stall once ended
/// after 32 s), and URLSession's own, looser timeout bounds every call anyway.
@Suite struct TimeoutReplayTests {
    /// `GET /ping` → `{"ok": true}`.
    struct PingService: WebService {
        var endpoint: String { "/ping" }
        func response(from json: JSON) throws -> Bool { try json["ok"].required.bool }
    }

    static let ping = Cassette(name: "ping", interactions: [.stub("GET", "/ping", json: ["ok": true])])
    static let question = ChatCompletionsService(model: "gpt-4o-mini", messages: [.user("Say hello.")])

    /// How a call ended and how long it took, measured around the call with a `ContinuousClock`.
    struct Timed<Value: Sendable>: Sendable {
        var result: Result<Value, WebServiceError>
        var elapsed: Duration
    }

    /// One `PingService` call with `timeout` against a strict server under `faults`.
    private func ping(timeout: TimeInterval, faults: String) async throws -> Timed<Bool> {
        try await withMockServer(cassettes: [Self.ping], configuration: .init(faults: .specs(faults), strict: true)) { server in
            let client = WebServiceClient(
                baseURL: try server.baseURL.orThrow("no base URL"), configuration: .init(timeout: timeout),
                transport: URLSessionTransport())
            let clock = ContinuousClock()
            let start = clock.now
            let result: Result<Bool, WebServiceError>
            do throws(WebServiceError) {
                result = .success(try await client.send(PingService()))
            } catch {
                result = .failure(error)
            }
            return Timed(result: result, elapsed: clock.now - start)
        }
    }

    /// The chat stream's deltas with `timeout` under `faults`, in recorded timing, and the error it ended with
    /// (after `deltasBeforeFailure` deltas).
    private func chat(timeout: TimeInterval, faults: String, deltasBeforeFailure: Int = 2) async throws -> Timed<[String]> {
        let cassettes = try RecordingsFolder.cassettes(named: "chat/completions", in: Recordings.folder)
        let configuration = CassetteServer.Configuration(faults: .specs(faults), strict: true, streamTiming: .recorded)
        return try await withMockServer(cassettes: cassettes, configuration: configuration) { server in
            let baseURL = try server.baseURL.orThrow("no base URL").appendingPathComponent("v1")
            let client = WebServiceClient(baseURL: baseURL, configuration: .init(timeout: timeout), transport: URLSessionTransport())
            let clock = ContinuousClock()
            let start = clock.now
            var received: [String] = []
            do throws(WebServiceError) {
                for try await delta in client.events(of: Self.question) {
                    received.append(delta.content ?? "")
                }
                return Timed(result: .success(received), elapsed: clock.now - start)
            } catch {
                #expect(received.count == deltasBeforeFailure, "the deltas before the stall arrive first")
                return Timed(result: .failure(error), elapsed: clock.now - start)
            }
        }
    }

    @Test(arguments: [0.5, 1.5])
    func stalledServer_failsAsTimedOut_noSoonerThanTheTimeout(timeout: TimeInterval) async throws {
        // GIVEN a server that never answers, WHEN a call with a fractional timeout is made
        let call = try await ping(timeout: timeout, faults: "stall")
        // THEN it fails as timed out, and not before the timeout has passed
        #expect(call.result.failure?.reason == .network(.timedOut))
        #expect(call.elapsed >= .seconds(timeout))
    }

    @Test func slowServer_answersWithinAFractionalTimeout() async throws {
        // GIVEN a server that answers after 200 ms, WHEN the client waits up to 0.9 s THEN it gets the answer
        let call = try await ping(timeout: 0.9, faults: "latency=200ms")
        #expect(try call.result.get() == true)
        #expect(call.elapsed >= .milliseconds(200))
    }

    @Test func stalledStream_failsAsTimedOut_noSoonerThanTheTimeout() async throws {
        // GIVEN a stream that stops after two events, WHEN read with a 0.5 s timeout
        let call = try await chat(timeout: 0.5, faults: "stall=event:2")
        // THEN it fails as timed out after those events, and not before the timeout has passed
        #expect(call.result.failure?.reason == .network(.timedOut))
        #expect(call.elapsed >= .milliseconds(500))
    }

    /// A stream that sends its head and then nothing times out, never before the timeout. (That it times out
    /// one timeout after the head, not two, is `TransferTimeoutTests`' to pin, on a clock of its own: an upper
    /// bound in wall time failed here at 11.6 s under a loaded machine.)
    @Test func streamStalledAfterItsHead_failsAsTimedOut_noSoonerThanTheTimeout() async throws {
        // GIVEN a stream whose head arrives and then nothing, WHEN read with a 1 s timeout
        let call = try await chat(timeout: 1, faults: "stall=event:0", deltasBeforeFailure: 0)
        // THEN it fails as timed out, not before the timeout
        #expect(call.result.failure?.reason == .network(.timedOut))
        #expect(call.elapsed >= .seconds(1))
    }

    @Test func streamLongerThanTheTimeout_isReadWhole_whileEachEventComesSooner() async throws {
        // GIVEN a stream spread over 1.7 s (the recorded 60 ms between events, plus 100 ms before each)
        let call = try await chat(timeout: 0.9, faults: "event-latency=100ms")
        // THEN a 0.9 s timeout bounds each wait for the next event, not the whole stream
        #expect(try call.result.get().joined() == "Hello! How can I help you today?")
        #expect(call.elapsed >= .milliseconds(1700))
    }
}

extension Result {
    /// The error, or `nil` on success.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
