import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
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
        #expect(routed.value(forHTTPHeaderField: "Host") == "api.github.com:8443")
    }

    @Test func hostReplacedOnTheWay_isPutBack_andTheCarrierRemoved() async throws {
        // Given a routed request as Apple's URLSession may send it: Host rewritten to the loopback address
        try await withServer(respond: { request in
            .response(status: 200, headers: ["X-Seen-Host": request.headers["Host"] ?? "-",
                                             "X-Seen-Names": request.headers.map(\.name).joined(separator: ",")])
        }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET /users HTTP/1.1\r\nHost: 127.0.0.1:\(url.port!)\r\nAccept: */*\r\nX-MockServer-Host: api.github.com:8443\r\n\r\n")
            // Then the server's handler sees the host the client asked for, in Host's place, and no carrier
            let response = try await client.readResponse()
            #expect(response.headers["X-Seen-Host"] == "api.github.com:8443")
            #expect(response.headers["X-Seen-Names"] == "Host,Accept")
        }
    }

}
