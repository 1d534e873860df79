import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import ServiceReplayShared
import Testing
import ServiceReplayTestSupport

/// Apple's URLSession may replace the `Host` a routed request sets, so the router carries the authority the
/// client asked for in `X-MockServer-Host`, and the server puts it back before anything sees the request.
@Suite struct RoutedHostTests {
    @Test func loopbackRequest_carriesTheAuthorityTheClientAskedFor() throws {
        let original = URLRequest(url: URL(string: "https://api.github.com:8443/users?q=1")!)
        let routed = try #require(HostRouter.loopbackRequest(for: original, to: URL(string: "http://127.0.0.1:9")!, sessionTimeout: 5, sessionHeaders: [:]))
        #expect(routed.url?.absoluteString == "http://127.0.0.1:9/users?q=1")
        #expect(routed.value(forHTTPHeaderField: "X-MockServer-Host") == "api.github.com:8443")
        #expect(routed.value(forHTTPHeaderField: "Host") == nil, "URLSession writes the loopback address, the only Host a server answers by default")
    }

    /// A client that sets `Host` itself (virtual hosting against an address) still reaches the server: libcurl
    /// would send that `Host`, which the server does not answer, so the router leaves `Host` to URLSession.
    @Test func aRequestThatSetsItsOwnHost_isStillAnswered_underTheHostOfItsURL() async throws {
        try await withMockServer(
            cassettes: [Cassette(name: "users", interactions: [.stub("GET", "/users", json: ["ok": true])])], configuration: .init(faults: .none)
        ) {
            server in
            var request = URLRequest(url: URL(string: "https://api.github.com/users")!)
            request.setValue("api.github.com", forHTTPHeaderField: "Host")
            #expect(
                HostRouter.loopbackRequest(for: request, to: try #require(server.baseURL), sessionTimeout: 5, sessionHeaders: [:])?.value(
                    forHTTPHeaderField: "Host") == nil)
            let session = URLSession(configuration: try server.sessionConfiguration())
            defer { session.finishTasksAndInvalidate() }
            let (_, response) = try await session.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(server.journal.entries.first?.request.headers["Host"] == "api.github.com")
        }
    }

    /// A routed request as Apple's URLSession may send it: Host rewritten to the loopback address of `base`.
    private static func routedHead(_ base: URL) -> String {
        "GET /users HTTP/1.1\r\nHost: 127.0.0.1:\(base.port!)\r\nAccept: */*\r\nX-MockServer-Host: api.github.com:8443"
    }

    @Test func hostReplacedOnTheWay_isPutBackForReplay_andTheCarrierRemoved() async throws {
        try await withMockServer(cassettes: [Cassette(name: "none", interactions: [])], configuration: .init(faults: .none)) { server in
            // Given a routed request whose Host was rewritten on the way
            _ = try await rawExchange(server.baseURL!, Self.routedHead(server.baseURL!))
            // Then the replay server saw the host the client asked for, in Host's place, and no carrier
            let request = try #require(server.journal.entries.first?.request)
            #expect(request.headers["Host"] == "api.github.com:8443")
            #expect(request.headers.map(\.name) == ["Host", "Accept"])
        }
    }

    @Test func hostReplacedOnTheWay_isPutBackForRecording_andTheCarrierNeitherForwardedNorRecorded() async throws {
        try await withUpstream { upstream, log in
            try await withRecordingServer(upstream: upstream) { server, base in
                // Given a routed request whose Host was rewritten on the way, recorded through the proxy
                let response = try await rawExchange(base, Self.routedHead(base))
                #expect(response.status == 404, "the fake upstream has no /users")
                // Then the cassette records it under the host the app meant (an app's API, CDN and auth hosts are
                // recorded each under its own), and neither the cassette nor the upstream holds the carrier
                let recorded = try #require(server.recordedCassette?.interactions.first?.request)
                #expect(recorded.headers.map(\.name) == ["Host", "Accept"])
                #expect(recorded.headers["Host"] == "api.github.com:8443")
                #expect(log.all.first?.headers["Host"] == "127.0.0.1:\(upstream.port!)", "forwarded to the upstream, named as such")
                #expect(log.all.count == 1)
                #expect(log.all.allSatisfy { !$0.headers.contains("X-MockServer-Host") })
            }
        }
    }
}

/// A WebSocket task on a routed session: no `URLProtocol` sees it, so the session's proxy is the server itself.
@Suite struct RoutedWebSocketGuardTests {
    @Test func routedConfiguration_namesTheServerAsItsProxy_soAWebSocketTaskNeverReachesTheRealHost() async throws {
        try await withMockServer(cassettes: [Cassette(name: "none")], configuration: .init(faults: .none)) { server in
            let port = try #require(server.baseURL?.port)
            let proxies = try #require(try server.sessionConfiguration().connectionProxyDictionary)
            #expect(proxies["HTTPProxy"] as? String == "127.0.0.1")
            #expect(proxies["HTTPSProxy"] as? String == "127.0.0.1")
            #expect(proxies["HTTPPort"] as? Int == port)
            #expect(proxies["HTTPSPort"] as? Int == port)
            #expect(proxies["HTTPEnable"] as? Int == 1)
            #expect(proxies["HTTPSEnable"] as? Int == 1)
        }
    }
}
