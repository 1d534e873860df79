import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import Testing

/// A stopped server's slot is not given to the next routed configuration at once: a session of the stopped
/// server, which still holds the slot's protocol class, must fail as a stopped server's would rather than
/// reach another test's server.
@Suite struct HostRouteSlotsTests {
    private func startedServer() async throws -> CassetteServer {
        let server = try CassetteServer(cassettes: [], configuration: .init(faults: .none))
        try await server.start()
        return server
    }

    private func slot(_ routing: AnyClass) throws -> Int {
        try #require(routing as? any RoutingProtocol.Type).slotIndex
    }

    @Test func stoppedServersSlot_waitsWhileOthersAreFreed_thenIsGivenAgain() async throws {
        let routes = HostRoutes()
        // GIVEN a server with a routed configuration, stopped
        let first = try await startedServer()
        let firstSlot = try slot(routes.protocolClass(for: first, configuration: .ephemeral))
        await first.stop()
        #expect(routes.destination(ofSlot: firstSlot) == nil)
        // WHEN as many servers as wait before a reuse each take a slot and stop
        for _ in 0..<HostRoutes.retiredBeforeReuse {
            let server = try await startedServer()
            let taken = try slot(routes.protocolClass(for: server, configuration: .ephemeral))
            // THEN none of them is given the first server's slot, which still leads nowhere
            #expect(taken != firstSlot)
            #expect(routes.destination(ofSlot: firstSlot) == nil)
            await server.stop()
        }
        // AND the next configuration is given the oldest freed slot, so the slots stay bounded
        let next = try await startedServer()
        #expect(try slot(routes.protocolClass(for: next, configuration: .ephemeral)) == firstSlot)
        #expect(routes.destination(ofSlot: firstSlot)?.destination.baseURL == next.baseURL)
        await next.stop()
    }

    @Test func serverGoneWithoutStopping_hasItsSessionsEnded_whenTheNextConfigurationLooks() async throws {
        let routes = HostRoutes()
        // GIVEN a routed configuration whose server holds open loopback sessions, then goes away unstopped
        var server: CassetteServer? = try await startedServer()
        let index = try slot(routes.protocolClass(for: try #require(server), configuration: .ephemeral))
        let sessions = try #require(routes.destination(ofSlot: index)?.destination.sessions)
        #expect(sessions.session(timeout: 5) != nil)
        weak let gone = server
        server = nil
        try #require(gone == nil, "the server outlived its last reference")
        // WHEN the next configuration is routed
        let next = try await startedServer()
        _ = routes.protocolClass(for: next, configuration: .ephemeral)
        // THEN the gone server's sessions are ended at once, not when its slot is given again
        #expect(sessions.session(timeout: 5) == nil)
        await next.stop()
    }
}
