import Foundation
import MockServer
import ServiceKit
import Testing

/// The README's MockServer example, so the README stays true; pinned to no faults (the README leaves the
/// default, the environment's plan), because CI reruns this target under random plans.
@Suite struct ReadmeExampleTests {
    @Test func octocat() async throws {
        try await withMockServer(replaying: "github/users", configuration: .init(faults: .none)) { server in
            let github = WebServiceClient(baseURL: server.baseURL!)
            let profile = try await github.send(GitHubUserService(login: "octocat"))
            #expect(profile.user.login == "octocat")
            try server.journal.verify(.get("/users/octocat"), calledTimes: 1)
        }
    }
}
