import Foundation
import ServiceReplayShared
import Testing

@testable import MockServerAppRouting

/// What the app side accepts in its variable, checked in this process without activating anything: only
/// `AppRoute.parse` runs, and `activate` with the variable absent, which must do nothing.
@Suite struct AppRouteParseTests {
    @Test(arguments: ["http://127.0.0.1:8080", "http://127.0.0.1:8080/", "HTTP://localhost:1", "http://127.1.2.3:9", "http://[::1]:8080"])
    func aLoopbackHTTPBaseURL_isTheServer(value: String) throws {
        #expect(try AppRoute.parse(value).get() == URL(string: value))
    }

    @Test(arguments: [
        ("https://127.0.0.1:8080", "its scheme is not http"),
        ("http://example.com:8080", "its host is not a loopback address"),
        ("http://128.0.0.1:8080", "its host is not a loopback address"),
        ("http://127.0.0.256:8080", "its host is not a loopback address"),
        ("http://127.0.0:8080", "its host is not a loopback address"),
        ("http://127.0.0.1:8080/api", "it has more than a scheme, host and port"),
        ("http://127.0.0.1:8080?q=1", "it has more than a scheme, host and port"),
        ("http://127.0.0.1:8080#f", "it has more than a scheme, host and port"),
        ("http://user@127.0.0.1:8080", "it has more than a scheme, host and port"),
        ("not a url", "it is not a URL"),
        ("", "it is not a URL"),
    ])
    func anythingElse_isRefused_inOneSentenceNamingWhy(value: String, why: String) {
        let expected =
            "MOCKSERVER_APP_SERVER is '\(value)', which is not the base URL of a server on this machine (such as http://127.0.0.1:8080): "
            + "\(why), so every request of the app fails instead of reaching the real network"
        #expect(throws: AppRoutingError(description: expected)) { try AppRoute.parse(value).get() }
    }

    @Test func withoutTheVariable_activationDoesNothing() throws {
        // GIVEN an environment without the variable
        // WHEN the app activates
        let server = try AppRouting.activate(environment: ["HOME": "/tmp"])
        // THEN nothing is routed and no protocol class is installed
        #expect(server == nil)
        #expect(ProcessRouting.protocolClass == nil)
        #expect(!AppRouting.routes(.shared, for: try #require(URL(string: "http://api.example.test/"))))
    }

    @Test func theVariable_isTheOneTheServerSets() {
        #expect(AppRouting.environmentVariable == "MOCKSERVER_APP_SERVER")
    }
}
