import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ServiceReplayShared
import Testing

@Suite struct URLSessionWebSocketTransportTests {
    #if os(Linux)
    @Test(.timeLimit(.minutes(1)))
    func onLinux_connectingFailsAtOnce_withOneClearSentence() async throws {
        // GIVEN a client with the default WebSocket transport, aimed at loopback only
        let client = WebServiceClient(baseURL: URL(string: "http://127.0.0.1:9")!)
        // WHEN it connects (libcurl refuses before any socket is opened)
        let error = await #expect(throws: WebServiceError.self) {
            try await client.connect(to: ChatService(room: "swift"))
        }
        // THEN it is network-level, saying why in one sentence
        #expect(error?.reason == .network(.cannotConnect))
        let underlying = try #require(error?.underlyingError as? URLError)
        #expect(underlying.code == .cannotConnectToHost)
        #expect(
            underlying.localizedDescription
                == "WebSockets are not available here: URLSession on Linux opens them through libcurl, which was built without WebSocket support; give the client another WebSocketTransport (Configuration.webSocketTransport)."
        )
    }
    #endif

    @Test func defaultConfiguration_opensWebSocketsWithURLSession() {
        let configuration = WebServiceClient.Configuration()
        #expect(configuration.webSocketTransport is URLSessionWebSocketTransport)
    }
}

/// The WebSocket route of an app under UI test. Serialized: the route is process-wide, and each test puts it back.
@Suite(.serialized) struct WebSocketRoutingTests {
    static let request = URLRequest(url: URL(string: "wss://api.example.com:8443/v1/chat?room=swift")!)

    @Test func routedApp_sendsItsSocketToTheTestServer_withTheHostItMeant() throws {
        ProcessRouting.routeWebSockets(.server(URL(string: "http://127.0.0.1:4567")!))
        defer { ProcessRouting.routeWebSockets(nil) }
        let routed = try ProcessRouting.routedWebSocketRequest(Self.request)
        #expect(routed.url?.absoluteString == "ws://127.0.0.1:4567/v1/chat?room=swift")
        #expect(routed.value(forHTTPHeaderField: HostRouter.hostHeader) == "api.example.com:8443")
        // A socket for loopback already goes where it says.
        let local = URLRequest(url: URL(string: "ws://127.0.0.1:9/chat")!)
        #expect(try ProcessRouting.routedWebSocketRequest(local).url == local.url)
    }

    @Test func refusedRoute_failsTheSocket_withRoutingsSentence() {
        ProcessRouting.routeWebSockets(.refused("MOCKSERVER_APP_SERVER is 'x', which is not the base URL of a server on this machine"))
        defer { ProcessRouting.routeWebSockets(nil) }
        let error = #expect(throws: URLError.self) { try ProcessRouting.routedWebSocketRequest(Self.request) }
        #expect(error?.code == .cannotConnectToHost)
        #expect(error?.localizedDescription.hasPrefix("MOCKSERVER_APP_SERVER is 'x'") == true)
    }

    @Test func withoutRouting_theRequestIsUnchanged() throws {
        #expect(try ProcessRouting.routedWebSocketRequest(Self.request).url == Self.request.url)
    }
}
