import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import ServiceReplayShared
import Testing

/// What `CassetteServer.sessionConfiguration(_:)` takes from the configuration it is given: its additional
/// headers travel with every routed request, and a background configuration is refused.
@Suite struct HostRoutingConfigurationTests {
    /// Runs `body` with a session routed to a server recording from a ``FakeUpstream`` on loopback, made
    /// from an ephemeral configuration whose `httpAdditionalHeaders` are `headers`.
    private static func withRecordingSession(
        headers: [String: String],
        _ body: (URLSession, CassetteServer, UpstreamLog) async throws -> Void
    ) async throws {
        try await withUpstream { upstream, log in
            try await withRecordingServer(upstream: upstream) { server, _ in
                let base = URLSessionConfiguration.ephemeral
                base.httpAdditionalHeaders = headers
                let session = URLSession(configuration: try server.sessionConfiguration(base))
                defer { session.finishTasksAndInvalidate() }
                try await body(session, server, log)
            }
        }
    }

    /// An SDK that puts its token in the configuration, not the request: the upstream gets it once, and the
    /// cassette holds it redacted.
    @Test func sessionsAdditionalHeader_reachesTheUpstreamOnce_andIsRecordedRedacted() async throws {
        try await Self.withRecordingSession(headers: ["Authorization": "Bearer session-token"]) { session, server, log in
            let (_, response) = try await session.httpData(for: URLRequest(url: URL(string: "https://api.example.com/json")!))
            #expect(response.statusCode == 200)
            #expect(log.all.map { $0.headers.values(for: "Authorization") } == [["Bearer session-token"]])
            let recorded = try #require(server.recordedCassette?.interactions.first?.request)
            #expect(recorded.headers.values(for: "Authorization") == [Cassette.redactionPlaceholder])
        }
    }

    /// As URLSession does: a header the request sets wins over the configuration's.
    @Test func requestsOwnHeader_winsOverTheSessions() async throws {
        try await Self.withRecordingSession(headers: ["Authorization": "Bearer session-token", "X-Client": "sdk"]) { session, _, log in
            var request = URLRequest(url: URL(string: "https://api.example.com/json")!)
            request.setValue("Bearer request-token", forHTTPHeaderField: "authorization")
            _ = try await session.httpData(for: request)
            let seen = try #require(log.all.first?.headers)
            #expect(seen.values(for: "Authorization") == ["Bearer request-token"])
            #expect(seen.values(for: "X-Client") == ["sdk"])
        }
    }

    /// On Apple platforms a background session ignores `protocolClasses` and would reach the real network;
    /// its configuration is the one with an `identifier`.
    @Test func backgroundConfiguration_isRefused_sayingWhy() async throws {
        #if canImport(Darwin)
        let background = URLSessionConfiguration.background(withIdentifier: "com.example.sync")
        #else
        // FoundationNetworking has no `background(withIdentifier:)`, but lets the identifier be set.
        let background = URLSessionConfiguration.default
        background.identifier = "com.example.sync"
        #endif
        try await withMockServer(cassettes: []) { server in
            #expect(
                throws: MockServerError(
                    .invalidConfiguration,
                    "the background session configuration 'com.example.sync' cannot be routed, because background sessions ignore protocolClasses and would reach the real network; pass .ephemeral or .default instead"
                )
            ) {
                try server.sessionConfiguration(background)
            }
            let routed = try server.sessionConfiguration(.default)
            #expect(routed.protocolClasses?.first is any RoutingProtocol.Type)
        }
    }

    @Test func loopbackRequest_addsTheSessionsHeaders_whereTheRequestHasNone() throws {
        var original = URLRequest(url: URL(string: "https://api.github.com/users")!)
        original.setValue("application/json", forHTTPHeaderField: "Accept")
        let routed = try #require(
            HostRouter.loopbackRequest(
                for: original, to: URL(string: "http://127.0.0.1:9")!, sessionTimeout: 5,
                sessionHeaders: ["Accept": "text/plain", "X-Token": "t"]))
        #expect(routed.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(routed.value(forHTTPHeaderField: "X-Token") == "t")
    }

    @Test func configurationsHeaders_areReadAsNamesAndValues() {
        #expect(HostRoutes.headers(nil) == [:])
        #expect(HostRoutes.headers(["Authorization": "Bearer t", "X-Count": 3]) == ["Authorization": "Bearer t", "X-Count": "3"])
    }
}
