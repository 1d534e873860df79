import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
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
        #expect(violations.map(\.error) == [.missingField("$.public_repos")])
        #expect(
            violations.map(\.description) == [
                "github-users interaction 2 (GET /users/octocat): GitHubUserService cannot read the response: the field $.public_repos is missing"
            ])
    }

    /// `Base` with its error detection for 2xx answers taken out and its mapping made optional: an error payload
    /// sent with 200 comes back as a `nil` value instead of an error, the swallowed error the check exists for.
    /// (A non-2xx answer cannot be swallowed so: ServiceKit reads it as an error whatever the service says.)
    struct SwallowingErrorPayloads<Base: WebService>: WebService {
        let base: Base
        var endpoint: String { base.endpoint }
        var method: HTTPMethod { base.method }
        var parameters: Parameters { base.parameters }
        func configure(_ request: inout URLRequest) { base.configure(&request) }
        func serviceError(in reply: RawResponse) -> WebServiceError.Service? { reply.isSuccess ? nil : base.serviceError(in: reply) }
        func response(from json: JSON) throws -> Base.Response? { try? base.response(from: json) }
        func decodeResponse(_ reply: RawResponse) throws -> Base.Response? { try? base.decodeResponse(reply) }
    }

    @Test func aServiceThatReadsAnErrorPayloadSentWith200AsASuccess_isReportedOnce_atItsTemplate() throws {
        // GIVEN services that read an error payload sent with 200 as a success, and the cassettes whose one such
        // answer is an error template (the rest 2xx successes and 4xx errors the services read as errors)
        let feed = contractViolations(of: SwallowingErrorPayloads(base: FeedService()), in: try Recordings.cassette("feed/feeds"))
        let questions = contractViolations(
            of: SwallowingErrorPayloads(base: StackExchangeQuestionsService(site: "stackoverflow")),
            in: try Recordings.cassette("stackexchange/questions"))
        // WHEN their contracts are checked, THEN each gives exactly one violation, at that template
        #expect(feed.map(\.description) == ["feed template maintenance: SwallowingErrorPayloads<FeedService> reads a recorded error as a success"])
        #expect(feed.map(\.place) == [.template("maintenance")])
        #expect(feed.map(\.error) == [nil])
        #expect(
            questions.map(\.description) == [
                "stackexchange-questions template throttle_violation_in_200: "
                    + "SwallowingErrorPayloads<StackExchangeQuestionsService> reads a recorded error as a success"
            ])
    }

    @Test func aServiceThatReadsAnErrorPayloadSentWith200AsASuccess_isReportedOnce_atItsInteraction() throws {
        // GIVEN the feed cassette whose first answer is the maintenance payload, sent with 200, and no templates
        var cassette = try Recordings.cassette("feed/feeds")
        let maintenance = try cassette.template("maintenance")
        cassette.errorTemplates = [:]
        cassette.interactions[0].outcome = .response(maintenance)
        let target = cassette.interactions[0].request.target
        // WHEN the contract of a service that swallows it is checked
        let violations = contractViolations(of: SwallowingErrorPayloads(base: FeedService()), in: cassette)
        // THEN exactly that interaction is reported
        #expect(
            violations.map(\.description) == ["feed interaction 0 (GET \(target)): SwallowingErrorPayloads<FeedService> reads a recorded error as a success"])
        // AND the service that reads it as the error payload it is has nothing to answer for
        #expect(contractViolations(of: FeedService(), in: cassette) == [])
    }

    @Test func aTemplateTheServiceCannotReadAsAnError_isReported_asAnErrorItCannotRead() throws {
        // GIVEN the feed cassette whose maintenance template, sent with 200, carries neither an error payload
        // ServiceKit recognises nor the fields of a page, and one whose body is not JSON at all
        var missingFields = try Recordings.cassette("feed/feeds")
        var template = try missingFields.template("maintenance")
        template.body = .json(["status": "down"])
        missingFields.errorTemplates["maintenance"] = template
        var notJSON = missingFields
        template.headers.set(name: "Content-Type", value: "text/plain")
        template.body = .text("down for maintenance")
        notJSON.errorTemplates["maintenance"] = template
        // WHEN the feed service's contract is checked, THEN each is one error it cannot read
        #expect(
            contractViolations(of: FeedService(), in: missingFields).map(\.description)
                == ["feed template maintenance: FeedService cannot read the error: the field $.list is missing"])
        #expect(
            contractViolations(of: FeedService(), in: notJSON).map(\.description)
                == ["feed template maintenance: FeedService cannot read the error: the body is text/plain, not JSON"])
    }

    @Test func aServiceWhoseRequestNoInteractionAnswers_hasNothingToReport() throws {
        // GIVEN a cassette of another API WHEN a service is checked against it THEN no interaction is its, so none is reported
        #expect(contractViolations(of: GitHubUserService(login: "octocat"), in: try Recordings.cassette("feed/feeds")) == [])
        // AND a service that would swallow a template of that cassette is not held to its templates either
        #expect(
            contractViolations(
                of: SwallowingErrorPayloads(base: GitHubUserService(login: "octocat")),
                in: try Recordings.cassette("feed/feeds")) == [])
    }
}
