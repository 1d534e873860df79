import Foundation
@testable import MockServer
import ServiceKit
import ExampleServices
import Testing

/// `GitHubUsersService` and `GitHubUserService` against `Recordings/github/users.json` over loopback HTTP.
/// The client's clock starts at the cassette's `recordedAt`, an hour before the recorded `X-RateLimit-Reset`.
@Suite(.timeLimit(.minutes(1))) struct GitHubReplayTests {
    static let cassette = "github/users"

    @Test func users_mapEveryField_fromTheRecordedPage() async throws {
        // Given the recorded first page of users
        let recorded = try #require(try Recordings.cassette(Self.cassette).responseJSON(0).elements)
        try await withReplay(Self.cassette, faults: .none) { replay in
            // When the first three users are listed
            let users = try await replay.client.send(GitHubUsersService(since: 0, perPage: 3))

            // Then each user reads as recorded
            Self.expect(users, matches: recorded)
            // And the request carried GitHub's media type and API version
            let request = try #require(replay.server.journal.entries.first?.request)
            #expect(request.headers["Accept"] == "application/vnd.github+json")
            #expect(request.headers["X-GitHub-Api-Version"] == "2022-11-28")
        }
    }

    @Test func pages_followTheLinkHeader() async throws {
        // Given two recorded pages, the first linking to since=3
        let cassette = try Recordings.cassette(Self.cassette)
        let first = try #require(try cassette.responseJSON(0).elements)
        let second = try #require(try cassette.responseJSON(1).elements)
        let link = try #require(cassette.interactions[0].response?.headers["Link"])
        #expect(link.contains("since=3&per_page=3>; rel=\"next\""))
        try await withReplay(Self.cassette, faults: .none) { replay in
            // When two pages are iterated
            var pages: [[GitHubUser]] = []
            for try await page in replay.client.pages(of: GitHubUsersService(since: 0, perPage: 3), maxPages: 2) {
                pages.append(page)
            }

            // Then the second page is the one the Link header named
            try #require(pages.count == 2)
            Self.expect(pages[0], matches: first)
            Self.expect(pages[1], matches: second)
            #expect(replay.server.journal.entries.map(\.request.target) == ["/users?since=0&per_page=3", "/users?since=3&per_page=3"])
        }
    }

    @Test func user_mapsEveryProfileField_fromTheRecording() async throws {
        // Given octocat's recorded profile
        let recorded = try Recordings.cassette(Self.cassette).responseJSON(2)
        try await withReplay(Self.cassette, faults: .none) { replay in
            // When the profile is fetched
            let profile = try await replay.client.send(GitHubUserService(login: "octocat"))

            // Then every field reads as recorded; null fields (email, bio) are absent
            Self.expect([profile.user], matches: [recorded])
            #expect(profile.name == recorded["name"]?.string)
            #expect(profile.company == recorded["company"]?.string)
            #expect(profile.blog == recorded["blog"]?.string)
            #expect(profile.location == recorded["location"]?.string)
            #expect(recorded["email"] == .null && profile.email == nil)
            #expect(recorded["bio"] == .null && profile.bio == nil)
            #expect(profile.publicRepos == recorded["public_repos"]?.int)
            #expect(profile.followers == recorded["followers"]?.int)
            #expect(profile.following == recorded["following"]?.int)
            let createdAt = try #require(recorded["created_at"]?.string)
            #expect(profile.createdAt == ISO8601DateFormatter().date(from: createdAt))
        }
    }

    @Test func user_thatDoesNotExist_isTheRecorded404() async throws {
        // Given the recorded 404 for an unknown login
        let message = try #require(try Recordings.cassette(Self.cassette).responseJSON(3)["message"]?.string)
        try await withReplay(Self.cassette, faults: .none) { replay in
            // When that login is fetched
            let error = await #expect(throws: WebServiceError.self) {
                try await replay.client.send(GitHubUserService(login: "no-such-user-xyz"))
            }

            // Then it is HTTP 404 with GitHub's message
            #expect(error?.reason == .service(.httpStatus(404, message: message)))
        }
    }

    /// Template → the error, for both GitHub services. Rate limits without `Retry-After` wait until
    /// `X-RateLimit-Reset`, an hour after the clock's start; with it (secondary limits), its 60 s.
    static let templates: [(template: String, expected: WebServiceError.Reason)] = [
        ("not_found", .service(.httpStatus(404, message: "Not Found"))),
        ("rate_limit", .service(.rateLimited(retryAfter: 3600))),
        ("rate_limit_429", .service(.rateLimited(retryAfter: 3600))),
        ("secondary_rate_limit", .service(.rateLimited(retryAfter: 60))),
    ]

    @Test(arguments: templates.map(\.template), [ServiceCall.gitHubUsers, .gitHubUser])
    func services_underAnErrorTemplate_endInGitHubsError(template: String, call: ServiceCall) async throws {
        // Given a server answering with one of GitHub's error responses
        let recorded = try Recordings.cassette(Self.cassette).template(template)
        let expected = try #require(Self.templates.first { $0.template == template }).expected
        try await withReplay(Self.cassette, faults: .specs("service-error=\(template)")) { replay in
            // When the call is sent
            let outcome = await call.perform(replay.client)

            // Then it ends in the documented error, under the template's status
            #expect(outcome.reason == expected)
            if case .failure(let error) = outcome {
                #expect(error.statusCode == recorded.status)
            }
        }
    }

    @Test func rateLimit_resetIsMeasuredOnTheClientsClock() async throws {
        // Given the primary rate limit, whose reset is recorded as epoch seconds
        let reset = try #require(try Recordings.cassette(Self.cassette).template("rate_limit").headers["X-RateLimit-Reset"].flatMap(Double.init))
        let now = Date(timeIntervalSince1970: reset - 125.5)
        try await withReplay(Self.cassette, faults: .specs("service-error=rate_limit"), client: ClientOptions(now: now)) { replay in
            // When a call is sent at 125.5 s before the reset
            let error = await #expect(throws: WebServiceError.self) {
                try await replay.client.send(GitHubUserService(login: "octocat"))
            }

            // Then the wait is the time to the reset, rounded up
            #expect(error?.reason == .service(.rateLimited(retryAfter: 126)))
        }
    }

    /// Compares users with their recordings field by field.
    static func expect(_ users: [GitHubUser], matches recorded: [CassetteJSON]) {
        #expect(users.count == recorded.count)
        for (user, item) in zip(users, recorded) {
            #expect(user.login == item["login"]?.string)
            #expect(user.id == item["id"]?.int)
            #expect(user.avatarURL == item["avatar_url"]?.url)
            #expect(user.profileURL == item["html_url"]?.url)
            #expect(user.type == item["type"]?.string)
            #expect(user.isSiteAdmin == item["site_admin"]?.bool)
        }
    }
}
