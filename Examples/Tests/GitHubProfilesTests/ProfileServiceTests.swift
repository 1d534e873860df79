import GitHubProfiles
import MockServer
import MockServerTesting
import Testing

@Suite(.mockServer(upstream: "https://api.github.com"))
struct ProfileServiceTests {
    let service: ProfileService

    init() throws {
        let server = try #require(CassetteServer.current)
        service = ProfileService(configuration: try server.sessionConfiguration())
    }

    @Test func octocat() async throws {
        let profile = try await service.profile(login: "octocat")
        #expect(profile.login == "octocat")
        #expect(profile.name == "The Octocat")
    }

    @Test func unknownUser() async throws {
        await #expect(throws: ProfileService.Failure.notFound("no-such-user-xyz")) {
            try await service.profile(login: "no-such-user-xyz")
        }
    }
}
