import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import Testing

/// The journal page at `/__mockserver/`, through URLSession and a raw connection over loopback. What it does in
/// a browser is `.ci/journal-page`'s to check, in headless Chromium.
@Suite struct JournalPageTests {
    static let cassette = ControlAPITests.cassette

    /// `GET target` on `server` with `headers`: the status, the headers and the body's bytes.
    static func get(
        _ server: CassetteServer, _ target: String, headers: [String: String] = [:]
    ) async throws -> (
        status: Int, response: HTTPURLResponse, body: Data
    ) {
        var request = URLRequest(url: URL(string: target, relativeTo: server.baseURL)!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await withURLSession { session in try await session.httpData(for: request) }
        return (response.statusCode, response, data)
    }

    @Test func page_isOneSelfContainedHTMLPage_servedAtThePrefix_andNeverJournaled() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { server in
            // When the page is asked for at the prefix
            let (status, response, body) = try await Self.get(server, "/__mockserver/")

            // Then it is the page's HTML, byte for byte, as HTML, and the request is in no journal
            #expect(status == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/html; charset=utf-8")
            #expect(response.value(forHTTPHeaderField: "Content-Security-Policy") == JournalPage.contentSecurityPolicy)
            #expect(response.value(forHTTPHeaderField: "Cache-Control") == "no-store")
            #expect(body == Data(JournalPage.html.utf8))
            #expect(server.journal.recordedCount == 0)
            #expect(server.unmatchedRequests.isEmpty)

            // And it loads nothing from elsewhere: no src attribute, no address with a scheme, and its only links
            // are the HAR download and the empty icon (which keeps a browser from asking the cassettes for one)
            let html = try #require(String(validUTF8: body))
            #expect(html.hasPrefix("<!doctype html>"))
            #expect(!html.contains("src="))
            #expect(!html.contains("://"))
            #expect(!html.contains("@import"))
            #expect(Self.attributeValues("href", in: html) == ["data:,", "journal.har"])
            // And nothing from the journal is ever put in as markup
            #expect(!html.contains("innerHTML"))
            #expect(!html.contains("insertAdjacentHTML"))
            #expect(!html.contains("document.write"))
        }
    }

    @Test func page_withoutItsSlash_isRedirectedToIt_keepingTheQuery_andOtherMethodsAre405() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { server in
            // When the prefix without its slash is asked for, with and without a query, on one connection
            let client = try RawHTTPClient(try #require(server.baseURL))
            try client.send("GET /__mockserver HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let bare = try await client.readResponse()
            try client.send("GET /__mockserver?since=3 HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let withQuery = try await client.readResponse()
            // And the page is posted to
            try client.send("POST /__mockserver/ HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n")
            let posted = try await client.readResponse()

            // Then both are sent to the page, which does not take POST, and none reached the cassettes
            #expect(bare.status == 308)
            #expect(bare.headers["Location"] == "/__mockserver/")
            #expect(withQuery.status == 308)
            #expect(withQuery.headers["Location"] == "/__mockserver/?since=3")
            #expect(posted.status == 405)
            #expect(posted.headers["Allow"] == "GET")
            #expect(server.journal.recordedCount == 0)

            // And where it points, the same connection gets the page (Linux's URLSession follows no relative
            // Location back to the same host, so this client follows it by hand, as a browser does)
            try client.send("GET \(try #require(withQuery.headers["Location"])) HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let followed = try await client.readResponse()
            #expect(followed.status == 200)
            #expect(followed.body == Data(JournalPage.html.utf8))
        }
    }

    @Test func pathsThatOnlyBeginLikeThePrefix_orAreRouted_areTheApps() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { server in
            // When requests whose paths begin as the prefix does without being it, and a routed one for it, arrive
            let (longer, _, _) = try await Self.get(server, "/__mockserverfoo")
            let (routed, _, _) = try await Self.get(server, "/__mockserver", headers: [HTTPRequest.routedHostHeader: "api.example.com"])

            // Then the cassettes answer them (nothing recorded: 404s), and the journal holds them as any other
            #expect(longer == 404)
            #expect(routed == 404)
            #expect(server.journal.entries.map(\.request.target) == ["/__mockserverfoo", "/__mockserver"])
        }
    }

    @Test func page_withAToken_isServedOnlyToItsBearer() async throws {
        var configuration = CassetteServer.Configuration(faults: .none)
        configuration.controlToken = "t0k3n"
        try await withMockServer(cassettes: [Self.cassette], configuration: configuration) { server in
            // When the page is asked for without the token, and with it
            let (refused, refusedResponse, refusedBody) = try await Self.get(server, "/__mockserver/")
            let (bare, _, _) = try await Self.get(server, "/__mockserver")
            let (served, _, body) = try await Self.get(server, "/__mockserver/", headers: ["Authorization": "Bearer t0k3n"])

            // Then only the bearer gets it; the others get the control API's 403 with its sentence, not the page
            #expect(refused == 403)
            #expect(bare == 403)
            #expect(refusedResponse.value(forHTTPHeaderField: "Content-Type") == "application/json; charset=utf-8")
            let refusal = try JSONSerialization.jsonObject(with: refusedBody) as? [String: Any]
            #expect(refusal?["error"] as? String == "the control API needs the server's token, as the header Authorization: Bearer TOKEN.")
            #expect(served == 200)
            #expect(body == Data(JournalPage.html.utf8))
        }
    }

    /// Every value of `attribute="…"` in `html`, sorted.
    static func attributeValues(_ attribute: String, in html: String) -> [String] {
        html.components(separatedBy: "\(attribute)=\"").dropFirst().compactMap { $0.split(separator: "\"", maxSplits: 1).first.map(String.init) }.sorted()
    }
}
