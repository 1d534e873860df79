import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ExampleServices
import ServiceKitTesting
import Testing

@Suite struct GitHubServicesTests {
    static let baseURL = "https://api.github.com"
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func user(_ login: String, id: Int) -> JSONValue {
        [
            "login": .string(login), "id": .integer(id), "node_id": "MDQ6VXNlcjE=",
            "avatar_url": .string("https://avatars.githubusercontent.com/u/\(id)?v=4"), "gravatar_id": "",
            "url": .string("https://api.github.com/users/\(login)"), "html_url": .string("https://github.com/\(login)"),
            "type": "User", "user_view_type": "public", "site_admin": false,
        ]
    }

    static let rateLimitMessage =
        "API rate limit exceeded for 203.0.113.7. (But here's the good news: Authenticated "
        + "requests get a higher rate limit. Check out the documentation for more details.)"

    func client(
        _ transport: ScriptedTransport, retryPolicy: RetryPolicy? = nil, clock: VirtualClock = VirtualClock(now: now)
    )
        -> WebServiceClient
    {
        makeClient(transport, baseURL: Self.baseURL, retryPolicy: retryPolicy, clock: clock)
    }

    @Test func users_request_sendsSincePerPageAndGitHubHeaders() async throws {
        let transport = ScriptedTransport(.json([]))
        _ = try await client(transport).send(GitHubUsersService(since: 0, perPage: 2))
        let request = try #require(transport.requests.first)
        #expect(request.url?.absoluteString == "https://api.github.com/users?since=0&per_page=2")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/vnd.github+json")
        #expect(request.value(forHTTPHeaderField: "X-GitHub-Api-Version") == "2022-11-28")
    }

    @Test func users_response_mapsEveryUser() async throws {
        let transport = ScriptedTransport(.json([Self.user("mojombo", id: 1), Self.user("defunkt", id: 2)]))
        let users = try await client(transport).send(GitHubUsersService(since: 0, perPage: 2))
        #expect(
            users == [
                GitHubUser(
                    login: "mojombo", id: 1, avatarURL: URL(string: "https://avatars.githubusercontent.com/u/1?v=4")!,
                    profileURL: URL(string: "https://github.com/mojombo")!, type: "User", isSiteAdmin: false),
                GitHubUser(
                    login: "defunkt", id: 2, avatarURL: URL(string: "https://avatars.githubusercontent.com/u/2?v=4")!,
                    profileURL: URL(string: "https://github.com/defunkt")!, type: "User", isSiteAdmin: false),
            ])
    }

    @Test func users_pages_followTheLinkHeader() async throws {
        // Given GitHub's Link headers: a next page, then only a templated "first"
        let transport = ScriptedTransport(
            .json(
                [Self.user("mojombo", id: 1), Self.user("defunkt", id: 46)],
                headers: [
                    ("Link", #"<https://api.github.com/users?since=46&per_page=2>; rel="next", <https://api.github.com/users{?since}>; rel="first""#)
                ]),
            .json([Self.user("pjhyett", id: 47)], headers: [("Link", #"<https://api.github.com/users{?since}>; rel="first""#)]))
        var logins: [String] = []
        // When all pages are iterated
        for try await page in client(transport).pages(of: GitHubUsersService(since: 0, perPage: 2)) {
            logins += page.map(\.login)
        }
        // Then the second request is the Link's target and iteration stops without a next link
        #expect(logins == ["mojombo", "defunkt", "pjhyett"])
        #expect(transport.requests.map { $0.url?.query } == ["since=0&per_page=2", "since=46&per_page=2"])
    }

    @Test func user_response_mapsTheProfile() async throws {
        var profile = Self.user("mojombo", id: 1)
        if case .object(var fields) = profile {
            fields.merge([
                "name": "Tom Preston-Werner", "company": "@chatterbugapp", "blog": "http://tom.preston-werner.com",
                "location": "San Francisco", "bio": "", "public_repos": 66, "followers": 24000, "following": 11,
                "created_at": "2007-10-20T05:24:19Z",
            ]) { _, new in new }
            profile = .object(fields)
        }
        let transport = ScriptedTransport(.json(profile))
        let user = try await client(transport).send(GitHubUserService(login: "mojombo"))
        #expect(transport.requests.first?.url?.absoluteString == "https://api.github.com/users/mojombo")
        #expect(user.user.login == "mojombo")
        #expect(user.name == "Tom Preston-Werner")
        #expect(user.company == "@chatterbugapp")
        #expect(user.blog == "http://tom.preston-werner.com")
        #expect(user.location == "San Francisco")
        #expect(user.email == nil)
        #expect(user.bio == nil)
        #expect(user.publicRepos == 66)
        #expect(user.followers == 24000)
        #expect(user.following == 11)
        #expect(user.createdAt == Date(timeIntervalSince1970: 1_192_857_859))
    }

    @Test func user_loginIsPercentEncodedIntoThePath() async throws {
        let transport = ScriptedTransport(.json(["message": "Not Found"], status: 404))
        _ = try? await client(transport).send(GitHubUserService(login: "no body?"))
        #expect(transport.requests.first?.url?.absoluteString == "https://api.github.com/users/no%20body%3F")
    }

    @Test func user_notFound_isServiceLevelWithMessage() async {
        let transport = ScriptedTransport(
            .json(
                [
                    "message": "Not Found", "status": "404",
                    "documentation_url": "https://docs.github.com/rest/users/users#get-a-user",
                ],
                status: 404))
        let error = await #expect(throws: WebServiceError.self) { try await client(transport).send(GitHubUserService(login: "x")) }
        #expect(error?.reason == .service(.httpStatus(404, message: "Not Found")))
    }

    @Test(arguments: [403, 429])
    func primaryRateLimit_waitsUntilResetOnTheClientsClock(status: Int) async {
        // Given a rate-limited answer whose reset is 60 s after the client's now
        let transport = ScriptedTransport(
            .json(
                ["message": .string(Self.rateLimitMessage)], status: status,
                headers: [
                    ("X-RateLimit-Limit", "60"), ("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "1700000060"),
                    ("X-RateLimit-Used", "60"), ("X-RateLimit-Resource", "core"),
                ]))
        // When a user is fetched
        let error = await #expect(throws: WebServiceError.self) { try await client(transport).send(GitHubUserService(login: "x")) }
        // Then it is a rate limit with the delay until reset
        #expect(error?.reason == .service(.rateLimited(retryAfter: 60)))
        #expect(error?.statusCode == status)
    }

    @Test func secondaryRateLimit_usesRetryAfter() async {
        let transport = ScriptedTransport(
            .json(
                ["message": "You have exceeded a secondary rate limit."], status: 403,
                headers: [("Retry-After", "60")]))
        let error = await #expect(throws: WebServiceError.self) { try await client(transport).send(GitHubUsersService()) }
        #expect(error?.reason == .service(.rateLimited(retryAfter: 60)))
    }

    @Test func forbiddenWithoutRateLimitHeaders_isHTTPStatus() async {
        let transport = ScriptedTransport(
            .json(
                ["message": "Resource not accessible"], status: 403,
                headers: [("X-RateLimit-Remaining", "59")]))
        let error = await #expect(throws: WebServiceError.self) { try await client(transport).send(GitHubUsersService()) }
        #expect(error?.reason == .service(.httpStatus(403, message: "Resource not accessible")))
    }

    @Test func rateLimit429_isRetriedAfterItsDelay_whenAPolicyIsSet() async throws {
        let clock = VirtualClock(now: Self.now)
        let transport = ScriptedTransport(
            .json(["message": "slow down"], status: 429, headers: [("Retry-After", "2")]),
            .json([Self.user("mojombo", id: 1)]))
        let users = try await client(transport, retryPolicy: RetryPolicy(jitter: 0), clock: clock).send(GitHubUsersService())
        #expect(users.map(\.login) == ["mojombo"])
        #expect(clock.sleeps == [2])
    }

    @Test func tlsFailure_isNetworkLevel_andNotRetried() async {
        let transport = ScriptedTransport(.fail(URLError(.serverCertificateUntrusted)))
        let error = await #expect(throws: WebServiceError.self) {
            try await client(transport, retryPolicy: RetryPolicy(jitter: 0)).send(GitHubUsersService())
        }
        #expect(error?.reason == .network(.secureConnectionFailed))
        #expect(transport.requests.count == 1)
    }
}
