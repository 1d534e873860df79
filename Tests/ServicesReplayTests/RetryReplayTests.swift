import Foundation
@testable import MockServer
import ServiceKit
import Testing

/// The client's retry policy against real faults: what is retried, how long it waits (on the virtual clock),
/// and that a POST is never sent twice.
@Suite(.timeLimit(.minutes(1))) struct RetryReplayTests {
    static let gets: [ServiceCall] = ServiceCall.everyService.filter { $0.method == .get }
    static let posts: [ServiceCall] = ServiceCall.everyService.filter { $0.method == .post }

    @Test func theTables_coverEveryService() {
        // Given the seven services, then five send GET (retried) and two send POST (never retried)
        #expect(Self.gets.map(\.name) == ["stackexchange", "github-users", "github-user", "friends", "feed"])
        #expect(Self.posts.map(\.name) == ["login", "upload"])
    }

    @Test(arguments: gets)
    func get_after503WithRetryAfter2_succeedsOnTheSecondAttempt(call: ServiceCall) async throws {
        // Given a server that answers the first request 503 with Retry-After: 2, and a retrying client
        let options = ClientOptions(retryPolicy: RetryPolicy(), commonParameters: call.commonParameters)
        let reference = try await call.faultFreeOutcome()
        try await withReplay(call.cassette, faults: .specs("status=503,retry-after=2,when=first:1"), client: options) { replay in
            // When the call is sent
            let outcome = await call.perform(replay.client)

            // Then it succeeds with the fault-free value, having waited the 2 s the server asked for
            #expect(outcome.hasSameValue(as: reference), "ended in \(outcome)")
            #expect(replay.clock.sleeps == [2])
            #expect(replay.server.journal.entries.map(\.outcome.kind) == [.faultInjected, .matched])
        }
    }

    @Test(arguments: gets)
    func get_resetOnce_succeedsAfterOneRetry(call: ServiceCall) async throws {
        // Given a server that resets the first connection, and a client retrying after 0.5 s without jitter
        let options = ClientOptions(retryPolicy: RetryPolicy(initialDelay: 0.5, jitter: 0), commonParameters: call.commonParameters)
        let reference = try await call.faultFreeOutcome()
        try await withReplay(call.cassette, faults: .specs("reset,when=first:1"), client: options) { replay in
            // When the call is sent
            let outcome = await call.perform(replay.client)

            // Then the second attempt answers: one retry, one backoff
            #expect(outcome.hasSameValue(as: reference), "ended in \(outcome)")
            #expect(replay.clock.sleeps == [0.5])
            #expect(replay.server.journal.entries.map(\.outcome.kind) == [.faultInjected, .matched])
        }
    }

    @Test(arguments: posts)
    func post_reset_isNotRetried(call: ServiceCall) async throws {
        // Given a server that resets the first connection, and a client with a retry policy
        let options = ClientOptions(retryPolicy: RetryPolicy(jitter: 0), commonParameters: call.commonParameters)
        try await withReplay(call.cassette, faults: .specs("reset,when=first:1"), client: options) { replay in
            // When the POST is sent
            let outcome = await call.perform(replay.client)

            // Then it ends as a lost connection after the one request: a POST is never repeated
            #expect(outcome.reason == .network(.connectionLost), "ended in \(outcome)")
            #expect(replay.server.journal.entries.count == 1)
            #expect(replay.clock.sleeps == [])
        }
    }

    @Test(arguments: posts)
    func post_after503_isNotRetried(call: ServiceCall) async throws {
        // Given a server that answers the first request 503 with Retry-After: 2, and a retrying client
        let options = ClientOptions(retryPolicy: RetryPolicy(), commonParameters: call.commonParameters)
        try await withReplay(call.cassette, faults: .specs("status=503,retry-after=2,when=first:1"), client: options) { replay in
            // When the POST is sent
            let outcome = await call.perform(replay.client)

            // Then the 503 is the answer: no wait, no second request
            #expect(outcome.reason == .service(.httpStatus(503, message: "Service Unavailable")), "ended in \(outcome)")
            #expect(replay.server.journal.entries.count == 1)
            #expect(replay.clock.sleeps == [])
        }
    }

    @Test(arguments: gets)
    func get_whoseRetryAfterExceedsThePolicy_endsWithoutWaiting(call: ServiceCall) async throws {
        // Given a server asking for 120 s, more than the policy's longest honoured wait (60 s)
        let options = ClientOptions(retryPolicy: RetryPolicy(maxRetryAfter: 60), commonParameters: call.commonParameters)
        try await withReplay(call.cassette, faults: .specs("status=429,retry-after=120,when=first:1"), client: options) { replay in
            // When the call is sent
            let outcome = await call.perform(replay.client)

            // Then the rate limit is reported with its delay rather than waited out
            #expect(outcome.reason == .service(.rateLimited(retryAfter: 120)), "ended in \(outcome)")
            #expect(replay.clock.sleeps == [])
            #expect(replay.server.journal.entries.count == 1)
        }
    }
}

extension ServiceCall {
    /// How the call ends against its cassette without faults: the reference a faulted call is compared to.
    func faultFreeOutcome() async throws -> CallOutcome {
        try await withReplay(cassette, faults: .none, client: ClientOptions(commonParameters: commonParameters)) { replay in
            await perform(replay.client)
        }
    }
}
