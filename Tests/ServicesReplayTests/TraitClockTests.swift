import Foundation
import ExampleServices
import MockServer
import MockServerTesting
import ServiceKit
import Testing

/// The `.mockServer` trait's `virtualClock: true`: each test case's server gets a clock of its own, standing at
/// the cassette's recording date, which the test gives its client.
@Suite(.ownEnvironment) struct TraitClockTests {
    @Test(.mockServer("github/users", faults: .specs("stall"), virtualClock: true))
    func virtualClock_standsAtTheRecording_andTheClientTimesOutOnIt() async throws {
        // GIVEN the trait's server, stalling, on a clock of its own
        let server = try #require(CassetteServer.current)
        let clock = try #require(server.configuration.clock)
        #expect(clock.now == ISO8601DateFormatter().date(from: "2026-11-21T10:04:31Z"))
        // WHEN a client on that clock with a 1 s timeout asks
        let client = WebServiceClient(baseURL: try #require(server.baseURL), configuration: .init(timeout: 1, clock: clock))
        let error = await #expect(throws: WebServiceError.self) { try await client.send(GitHubUserService(login: "octocat")) }
        // THEN it times out at exactly 1 s on the clock
        #expect(error?.reason == .network(.timedOut))
        #expect(clock.elapsed == .seconds(1))
    }

    @Test(.mockServer("github/users", faults: .none))
    func withoutVirtualClock_theServerIsOnTheRealClock() async throws {
        let server = try #require(CassetteServer.current)
        #expect(server.configuration.clock == nil)
        let client = WebServiceClient(baseURL: try #require(server.baseURL))
        _ = try await client.send(GitHubUserService(login: "octocat"))
    }
}
