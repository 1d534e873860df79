import Foundation
import MockServer
import ServiceKit
import ExampleServices
import ServiceReplayTesting
import Testing
import ServiceReplayTestSupport

/// The MockServer example of the "Replaying in tests" article (`Sources/MockServer/MockServer.docc/ReplayingInTests.md`,
/// once the README's), so the article stays true; pinned to no faults (the README leaves the
/// default, the environment's plan), because CI reruns this target under random plans.
@Suite(.ownEnvironment) struct ReadmeExampleTests {
    @Test func octocat() async throws {
        try await withMockServer(replaying: "github/users", configuration: .init(faults: .none)) { server in
            let github = WebServiceClient(baseURL: server.baseURL!)
            let profile = try await github.send(GitHubUserService(login: "octocat"))
            #expect(profile.user.login == "octocat")
            try server.journal.verify(.get("/users/octocat"), calledTimes: 1)
        }
    }

    /// The article's "In tests": a ServiceKit error's `reason`, read inside a `withReplay` body.
    @Test func errorReason_insideTheClosure() async throws {
        try await withReplay("github/users", configuration: .init(faults: .none)) { replay in
            let error = await #expect(throws: WebServiceError.self) {
                try await replay.client.send(GitHubUserService(login: "no-such-user-xyz"))
            }
            #expect(error?.reason == .service(.httpStatus(404, message: "Not Found")))
        }
    }
}
