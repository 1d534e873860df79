import Foundation
import MockServer
import Testing

/// `CassetteServer.launchEnvironment`: what a UI test gives the app, only while the server listens.
@Suite struct LaunchEnvironmentTests {
    /// The error reading it throws, or `nil` when it returned.
    static func failure(of server: CassetteServer) -> MockServerError? {
        do {
            _ = try server.launchEnvironment
            return nil
        } catch {
            return error
        }
    }

    @Test func whileRunning_itNamesTheServersBaseURL_andNotBeforeOrAfter() async throws {
        // GIVEN a server not started yet: there is no address to give
        let server = try CassetteServer(cassettes: [], configuration: .init(faults: .none))
        let notRunning = "the server is not running, so there is no address to give the app; start it before launching the app"
        #expect(Self.failure(of: server)?.code == .notRunning)
        #expect(Self.failure(of: server)?.description == notRunning)
        // WHEN it starts
        let base = try await server.start()
        // THEN the environment holds one variable, its base URL
        #expect(try server.launchEnvironment == ["MOCKSERVER_APP_SERVER": base.absoluteString])
        // and once it stopped there is none again
        await server.stop()
        #expect(Self.failure(of: server)?.description == notRunning)
    }
}
