import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
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
