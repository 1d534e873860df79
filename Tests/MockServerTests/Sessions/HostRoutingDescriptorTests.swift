import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif
@testable import MockServer
import ServiceReplayShared
import ServiceReplayTestSupport
import Testing

/// What a server releases when it stops: the actions given to `whenStopped`, and with them each routed
/// configuration's loopback sessions.
@Suite struct ServerStopReleasesTests {
    @Test func whenStopped_runsEachActionOnce_atStop_inOrder_andAtOnceAfterIt() async throws {
        // GIVEN a running server with two actions to run when it stops
        let server = try ReplayServer(cassettes: [HostRoutingTests.users], configuration: .init(faults: .none))
        try await server.start()
        let ran = Lock<[String]>([])
        server.whenStopped { ran.withLock { $0.append("first") } }
        server.whenStopped { ran.withLock { $0.append("second") } }
        #expect(ran.withLock { $0 }.isEmpty)
        // WHEN it stops, twice, and is given an action afterwards
        await server.stop()
        await server.stop()
        #expect(ran.withLock { $0 } == ["first", "second"])
        server.whenStopped { ran.withLock { $0.append("late") } }
        // THEN each action ran once, the late one at once
        #expect(ran.withLock { $0 } == ["first", "second", "late"])
    }

    @Test func loopbackSessions_oneForEachTimeout_noneOnceInvalidated() throws {
        let sessions = LoopbackSessions()
        let five = try #require(sessions.session(timeout: 5))
        #expect(sessions.session(timeout: 5) === five)
        let ten = try #require(sessions.session(timeout: 10))
        #expect(ten !== five)
        #expect(ten.configuration.timeoutIntervalForRequest == 10)
        sessions.invalidate()
        #expect(sessions.session(timeout: 5) == nil)
        sessions.invalidate()
    }

    @Test func stoppingTheServer_endsItsRoutedSessions_andLaterRequestsFailWithoutReachingTheNetwork() async throws {
        // GIVEN a routed session that reached its server through its slot's loopback session
        let server = try ReplayServer(cassettes: [HostRoutingTests.users], configuration: .init(faults: .none))
        try await server.start()
        let configuration = try server.sessionConfiguration()
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let url = try #require(URL(string: "https://api.github.com/users/octocat"))
        let (_, response) = try await session.httpData(for: URLRequest(url: url))
        #expect(response.statusCode == 200)
        let routing = try #require(configuration.protocolClasses?.first as? any RoutingProtocol.Type)
        let sessions = try #require(HostRoutes.shared.destination(ofSlot: routing.slotIndex)?.sessions)
        #expect(sessions.session(timeout: configuration.timeoutIntervalForRequest) != nil)
        // WHEN the server stops
        await server.stop()
        // THEN its loopback sessions are ended, and the next request fails as a refused connection would,
        // naming the URL asked for
        #expect(sessions.session(timeout: configuration.timeoutIntervalForRequest) == nil)
        let error = await #expect(throws: URLError.self) { _ = try await session.data(from: url) }
        #expect(error?.code == .cannotConnectToHost)
        #expect(error?.failingURL == url)
    }
}
