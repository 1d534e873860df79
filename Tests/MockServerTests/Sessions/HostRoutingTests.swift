import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import ServiceReplayShared
import Testing

/// `CassetteServer.sessionConfiguration()`: any host, https included, reaches the server over loopback.
@Suite struct HostRoutingTests {
    static let users = Cassette(
        name: "users",
        interactions: [
            .stub("GET", "/users/octocat", json: ["login": "octocat"]),
            .stub("POST", "/users", status: 201, json: ["id": 7], requestBody: .json(["login": "hubot"])),
        ])

    /// Runs `body` with a session routed to a server replaying `cassette` (`faults` as a plan), invalidated after.
    /// The default `timeout` is a hang guard only: a loaded machine must not time out an answered request.
    static func withRoutedSession<T>(
        _ cassette: Cassette = users, faults: String? = nil, timeout: TimeInterval = 60,
        onRequest: (@Sendable (JournalEntry) -> Void)? = nil,
        _ body: (CassetteServer, URLSession) async throws -> T
    ) async throws -> T {
        let plan = try faults.map { try FaultPlan.parse(specs: $0, seed: 42) }
        let configuration = CassetteServer.Configuration(faults: plan.map { .plan($0) } ?? .none, onRequest: onRequest)
        return try await withMockServer(cassettes: [cassette], configuration: configuration) { server in
            let configuration = try server.sessionConfiguration()
            configuration.timeoutIntervalForRequest = timeout
            let session = URLSession(configuration: configuration)
            defer { session.finishTasksAndInvalidate() }
            return try await body(server, session)
        }
    }

    @Test func httpsRequestForAnotherHost_isAnsweredByTheServer_withTheURLTheClientAskedFor() async throws {
        try await Self.withRoutedSession { server, session in
            let url = URL(string: "https://api.github.com/users/octocat")!
            let (data, response) = try await session.httpData(for: URLRequest(url: url))
            #expect(response.statusCode == 200)
            #expect(response.url == url)
            #expect(String(decoding: data, as: UTF8.self) == #"{"login":"octocat"}"#)
            let request = try #require(server.journal.entries.first?.request)
            #expect(request.target == "/users/octocat")
            #expect(request.headers["Host"] == "api.github.com")
        }
    }

    @Test func postBody_andPort_reachTheServer() async throws {
        try await Self.withRoutedSession { server, session in
            var request = URLRequest(url: URL(string: "http://example.test:8443/users")!)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(#"{"login":"hubot"}"#.utf8)
            let (data, response) = try await session.httpData(for: request)
            #expect(response.statusCode == 201)
            #expect(String(decoding: data, as: UTF8.self) == #"{"id":7}"#)
            #expect(server.journal.entries.first?.request.headers["Host"] == "example.test:8443")
        }
    }

    /// The router's loopback session refuses redirects, so the 3xx the server replays is the routed client's
    /// answer, as a recorded exchange has it. (A relative `Location`: were it followed, an absolute one would
    /// leave loopback.)
    @Test func recordedRedirect_reachesTheClientAsA302_withItsLocation_andIsNotFollowed() async throws {
        // Given a cassette whose /old answers 302 to /new, which answers 200
        let cassette = Cassette(
            name: "moved",
            interactions: [
                .stub("GET", "/old", status: 302, text: "moved\n", headers: ["Location": "/new"]),
                .stub("GET", "/new", json: ["followed": true]),
            ])
        try await Self.withRoutedSession(cassette) { server, session in
            // When a routed client asks for /old
            let (data, response) = try await session.httpData(for: URLRequest(url: URL(string: "https://api.github.com/old")!))
            // Then it gets the 302 itself, with its Location and body, and the server saw only that one request
            #expect(response.statusCode == 302)
            #expect(response.value(forHTTPHeaderField: "Location") == "/new")
            #expect(String(decoding: data, as: UTF8.self) == "moved\n")
            #expect(server.journal.entries.map(\.request.target) == ["/old"])
        }
    }

    /// An upload task's body reaches the server where the platform hands it to a URLProtocol (Darwin, as a
    /// stream); where it does not (FoundationNetworking), the request fails naming the platform, rather than
    /// reaching the server without its body.
    @Test func uploadTask_sendsItsBody_orFailsNamingThePlatformThatHidesIt() async throws {
        try await Self.withRoutedSession { server, session in
            var request = URLRequest(url: URL(string: "https://api.github.com/users")!)
            request.httpMethod = "POST"
            let body = Data(#"{"login":"hubot"}"#.utf8)
            if URLSessionQuirks.hidesUploadBodies {
                let error = await #expect(throws: URLError.self) {
                    _ = try await session.upload(for: request, from: body)
                }
                #expect(error?.code == .unsupportedURL)
                #expect(
                    error?.localizedDescription
                        == "a routed session cannot read the body of this upload task, since \(URLSessionQuirks.sessionName) does not hand it to a URLProtocol; set the request's httpBody and use a data task"
                )
                #expect(server.journal.entries.isEmpty)
            } else {
                _ = try await session.upload(for: request, from: body)
                #expect(server.journal.entries.map(\.request.body) == [body])
            }
        }
    }

    @Test func hostIsMatched_onlyWhenTheRulesListIt() async throws {
        var cassette = Self.users
        cassette.matching.headers = ["Host"]
        cassette.interactions = [.stub("GET", "/users/octocat", json: ["login": "octocat"], requestHeaders: ["Host": "api.github.com"])]
        try await Self.withRoutedSession(cassette) { _, session in
            let (_, listed) = try await session.httpData(for: URLRequest(url: URL(string: "https://api.github.com/users/octocat")!))
            let (_, other) = try await session.httpData(for: URLRequest(url: URL(string: "https://evil.example/users/octocat")!))
            #expect(listed.statusCode == 200)
            #expect(other.statusCode == 404)
        }
    }

    #if canImport(FoundationNetworking)
    /// The same table as a direct client's (``FaultClientTests/urlSessionCodes``, libcurl's): routing adds no error of its own.
    @Test(arguments: FaultClientTests.urlSessionCodes)
    func networkFault_reachesTheClient_asTheSameURLError(spec: String, codes: Set<Int>) async throws {
        try await Self.withRoutedSession(faults: spec, timeout: TimeInterval(FaultClientTests.clientTimeout(for: spec))) { _, session in
            let url = URL(string: "https://api.github.com/users/octocat")!
            let error = await #expect(throws: URLError.self) {
                try await session.httpData(for: URLRequest(url: url))
            }
            #expect(codes.contains(error?.code.rawValue ?? 0), "\(spec) gave \(String(describing: error?.code.rawValue))")
            #expect((error?.userInfo[NSURLErrorFailingURLErrorKey] as? URL) == url)
        }
    }
    #endif

    /// Cancelling hops off the session's work queue: cancelling the loopback task from there would deadlock.
    @Test func cancelledRequest_endsCancelled() async throws {
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        // The timeout is longer than any stall between the arrival and the cancel, so only the cancel ends the call.
        try await Self.withRoutedSession(faults: "stall", timeout: 300, onRequest: { _ in arrived.yield() }) { _, session in
            let call = Task { try await session.httpData(for: URLRequest(url: URL(string: "https://api.github.com/users/octocat")!)) }
            var waiting = arrivals.makeAsyncIterator()
            await waiting.next()
            call.cancel()
            let error = await #expect(throws: URLError.self) { try await call.value }
            #expect(error?.code == .cancelled)
        }
    }

    @Test func stoppedServer_hasNoConfigurationToGive() async throws {
        let server = try CassetteServer(cassettes: [])
        #expect(throws: MockServerError(.notRunning, "the server is not running, so there is nothing to route requests to; start it first")) {
            try server.sessionConfiguration()
        }
    }
}
