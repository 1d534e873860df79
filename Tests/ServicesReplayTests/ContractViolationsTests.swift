import Foundation
import MockServer
import ExampleServices
import ServiceKit
import ServiceReplayTesting
import Testing

/// The product's contract check, ``contractViolations(of:in:matching:)``, called as an app would: one
/// service and one cassette, the interactions found from the service's own request.
@Suite struct ContractViolationsTests {
    @Test func everyBundledService_readsItsRecordings() throws {
        // GIVEN each bundled service with the cassette of its API WHEN the contract is checked THEN nothing is reported
        #expect(contractViolations(of: GitHubUserService(login: "octocat"), in: try Recordings.cassette("github/users")) == [])
        #expect(contractViolations(of: GitHubUsersService(), in: try Recordings.cassette("github/users")) == [])
        #expect(contractViolations(of: FeedService(), in: try Recordings.cassette("feed/feeds")) == [])
        #expect(contractViolations(of: LoginService(username: "", password: ""), in: try Recordings.cassette("login/login")) == [])
    }

    @Test func anInteractionLackingARequiredField_isReportedWithItsIndexAndKeyPath() throws {
        // GIVEN the GitHub cassette with public_repos removed from the answer to GET /users/octocat (interaction 2)
        var cassette = try Recordings.cassette("github/users")
        try cassette.editResponse(2) { $0.replacing([.key("public_repos")], with: nil) }
        // WHEN the user service's contract is checked, the interactions found from its own request
        let violations = contractViolations(of: GitHubUserService(login: "octocat"), in: cassette)
        // THEN exactly that interaction is reported, with the key path WebServiceError names
        #expect(violations.map(\.place) == [.interaction(index: 2, method: "GET", target: "/users/octocat")])
        #expect(violations.map(\.error) == [.missingField("public_repos")])
        #expect(violations.map(\.description) == ["github-users interaction 2 (GET /users/octocat): GitHubUserService cannot read the response: the field public_repos is missing"])
    }

    @Test func aServiceWhoseRequestNoInteractionAnswers_hasNothingToReport() throws {
        // GIVEN a cassette of another API WHEN a service is checked against it THEN no interaction is its, so none is reported
        #expect(contractViolations(of: GitHubUserService(login: "octocat"), in: try Recordings.cassette("feed/feeds")) == [])
    }
}
