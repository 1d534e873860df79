import Foundation
import MockServer
import ServiceKit
import ExampleServices
import ServiceReplayTesting
import Testing
import ServiceReplayTestSupport

/// The `ServiceReplayTesting` product as an app's tests use it: cassettes found from the test's own file, a
/// client pointed at the server, and a clock standing where the cassette was recorded. Pinned to no faults,
/// because CI reruns this target under random plans.
@Suite(.ownEnvironment) struct WithReplayTests {
    @Test func client_reachesTheReplay_withItsClockAtTheCassettesRecordingDate() async throws {
        // GIVEN github/users, recorded at 2026-11-21T10:04:31Z, found from this file's folder
        try await withReplay("github/users", configuration: .init(faults: .none)) { replay in
            // WHEN the client sends a service
            let profile = try await replay.client.send(GitHubUserService(login: "octocat"))
            // THEN the recorded answer comes back, the journal saw it, and the clock stands at the recording date
            #expect(profile.user.login == "octocat")
            try replay.server.journal.verify(.get("/users/octocat"), calledTimes: 1)
            #expect(replay.clock.now == ISO8601DateFormatter().date(from: "2026-11-21T10:04:31Z"))
            #expect(replay.clock.sleeps.isEmpty)
        }
    }

    @Test func stall_timesOutOnTheSharedClock_exactlyAtTheClientsTimeout() async throws {
        // GIVEN a replay whose server stalls, and a client with a 1 s timeout
        let settings = WebServiceClient.Configuration(timeout: 1)
        try await withReplay("github/users", configuration: .init(faults: .specs("stall")), client: settings) { replay in
            // WHEN the client asks
            let error = await #expect(throws: WebServiceError.self) { try await replay.client.send(GitHubUserService(login: "octocat")) }
            // THEN it times out on the clock the server and the client share, at exactly 1 s, without waiting for it
            #expect(error?.reason == .network(.timedOut))
            #expect(replay.clock.elapsed == .seconds(1))
            #expect(replay.server.configuration.clock === replay.clock)
        }
    }

    @Test func clockOfTheConfiguration_isTheClientsToo() async throws {
        // GIVEN a clock of the test's own in the server's configuration
        let clock = VirtualClock(now: Date(timeIntervalSince1970: 5_000))
        var configuration = CassetteServer.Configuration(faults: .specs("latency=700ms"))
        configuration.clock = clock
        try await withReplay("github/users", configuration: configuration, client: .init(timeout: 1)) { replay in
            // WHEN the client asks under a latency
            _ = try await replay.client.send(GitHubUserService(login: "octocat"))
            // THEN the replay hands over that clock, kept at its date, moved by the latency alone
            #expect(replay.clock === clock)
            #expect(clock.now == Date(timeIntervalSince1970: 5_000.7))
        }
    }

    @Test func givenDate_andClientSettings_areKept() async throws {
        // GIVEN a start date and client settings of the test's own
        let start = Date(timeIntervalSince1970: 1_000_000)
        let settings = WebServiceClient.Configuration(headers: ["X-Test": "kept"], timeout: 30)
        try await withReplay("github/users", configuration: .init(faults: .none), client: settings, now: start) { replay in
            // WHEN a request goes through
            _ = try await replay.client.send(GitHubUserService(login: "octocat"))
            // THEN the clock starts at the date given, and the request carried the client's header
            #expect(replay.clock.now == start)
            #expect(replay.server.journal.entries.first?.request.headers["X-Test"] == "kept")
        }
    }
}
