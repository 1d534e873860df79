import Foundation
@testable import MockServer
import Testing

/// A fault rule's `path=` glob, request matching and journal patterns compare one path: the target without
/// query or fragment, an absolute-form target's scheme and authority dropped, escapes decoded as matching
/// decodes them.
@Suite struct FaultPathTests {
    @Test(arguments: [
        // target as sent, glob, whether the glob selects the request
        ("/%75sers/1", "/users/*", true),  // a percent-encoded letter
        ("/users/%31", "/users/1", true),
        ("http://127.0.0.1/users/1", "/users/*", true),  // absolute-form, as sent to a proxy
        ("http://127.0.0.1/users/1?x=1", "/users/1", true),
        ("/users/1#top", "/users/1", true),  // a fragment is not part of the path
        ("/users/1?page=2#top", "*/1", true),
        ("/users%2F1", "/users/*", false),  // an encoded slash stays encoded
        ("/feeds", "/users/*", false),
    ])
    func faultPathGlob_andJournalPattern_selectTheSameRequests(target: String, glob: String, selects: Bool) async throws {
        // Given a recorded GET /users/1 and a fault on the glob's paths
        let cassette = Cassette(name: "users", interactions: [.stub("GET", "/users/1", json: .object(["id": .string("1")]))])
        let plan = try FaultPlan.parse(specs: "status=503,path=\(glob)")
        try await withMockServer(cassettes: [cassette], configuration: .init(faults: .plan(plan))) { server in
            // When the target is sent as is
            let client = try RawHTTPClient(server.baseURL!)
            try client.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let response = try await client.readResponse()

            // Then the fault applies exactly when the journal pattern with the same glob selects the request
            let pattern = RequestPattern.get(glob)
            #expect(pattern.matches(HTTPRequest(method: "GET", target: target)) == selects)
            #expect(server.journal.entries.filter { pattern.matches($0.request) }.count == (selects ? 1 : 0))
            #expect(response.status == (selects ? 503 : (RequestParts.normalizedPath(of: target) == "/users/1" ? 200 : 404)))
        }
    }
}
