import Foundation
@testable import MockServer
import ExampleServices
import ServiceKit
import Testing

/// Every response body in `Recordings/` read through the types of the service that would have sent its
/// request; see ``RecordingsContract`` for the rules.
@Suite struct RecordingsContractTests {
    @Test func everyRecordedBody_readsThroughItsService() throws {
        // Given every cassette in Recordings/
        let cassettes = try Recordings.all()
        try #require(!cassettes.isEmpty)

        // When each interaction and template is read by its service
        let problems = cassettes.flatMap(RecordingsContract.problems(in:))

        // Then nothing is unreadable, and every service has a recording to be checked against
        #expect(problems == [])
        let covered = cassettes.reduce(into: Set<String>()) { $0.formUnion(RecordingsContract.services(of: $1)) }
        #expect(covered == Set(RecordingsContract.routes.map(\.service)))
    }

    /// A cassette damaged in memory, and the problems the check must report, word for word.
    struct Breakage: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let cassette: String
        let damage: @Sendable (inout Cassette) throws -> Void
        let problems: [String]
    }

    static let breakages: [Breakage] = [
        Breakage(
            testDescription: "a required field removed", cassette: "github/users",
            damage: { cassette in
                try cassette.editResponse(2) { $0.replacing([.key("public_repos")], with: nil) }
            }, problems: ["github-users interaction 2 (GET /users/octocat): GitHubUserService cannot read the response: the field $.public_repos is missing"]),
        Breakage(
            testDescription: "a nested field of the wrong type", cassette: "stackexchange/questions",
            damage: { cassette in
                try cassette.editResponse(0) { $0.replacing([.key("items"), .index(1), .key("score")], with: "high") }
            },
            problems: [
                "stackexchange-questions interaction 0 (GET /2.3/questions?order=desc&sort=activity&tagged=swift&site=stackoverflow&page=1&pagesize=3): "
                    + "StackExchangeQuestionsService cannot read the response: the field $.items[1].score has an unexpected value"
            ]),
        Breakage(
            testDescription: "a field missing in a list entry", cassette: "feed/feeds",
            damage: { cassette in
                try cassette.editResponse(1) { $0.replacing([.key("list"), .index(2), .key("userName")], with: nil) }
            }, problems: ["feed interaction 1 (GET /feeds?page=2&pageSize=3): FeedService cannot read the response: the field $.list[2].userName is missing"]),
        Breakage(
            testDescription: "an error without its message", cassette: "login/login",
            damage: { cassette in
                try cassette.editResponse(1) { _ in ["detail": "nope"] }
            }, problems: ["login interaction 1 (POST /login): LoginService cannot read the error: the body has no message it recognises"]),
        Breakage(
            testDescription: "a template whose delay cannot be read", cassette: "stackexchange/questions",
            damage: { cassette in
                var template = try cassette.template("throttle_violation")
                guard case .json(let json, _) = template.body.form else { throw FixtureProblem("the template has no JSON body") }
                template.body = .json(json.replacing([.key("error_message")], with: "slow down"))
                cassette.errorTemplates["throttle_violation"] = template
            },
            problems: [
                "stackexchange-questions template throttle_violation: StackExchangeQuestionsService cannot read the error: "
                    + "the rate limit carries no delay it recognises"
            ]),
        Breakage(
            testDescription: "a request no service sends", cassette: "friends/friends",
            damage: { cassette in
                cassette.interactions[0].request.target = "/friends/42/photos?token=<redacted>"
            }, problems: ["friends interaction 0 (GET /friends/42/photos?token=<redacted>): no service sends GET /friends/42/photos"]),
        Breakage(
            testDescription: "HTML instead of JSON", cassette: "upload/photos",
            damage: { cassette in
                guard var response = cassette.interactions[0].response else { throw FixtureProblem("no response") }
                response.headers.set(name: "Content-Type", value: "text/html; charset=utf-8")
                response.body = .text("<html>Created</html>")
                cassette.interactions[0].outcome = .response(response)
            }, problems: ["upload-photos interaction 0 (POST /photos): PhotoUploadService cannot read the response: the body is text/html, not JSON"]),
    ]

    @Test(arguments: breakages)
    func aBrokenCopy_failsNamingTheInteractionAndTheField(breakage: Breakage) throws {
        // Given an in-memory copy of a cassette, damaged
        var cassette = try Recordings.cassette(breakage.cassette)
        #expect(RecordingsContract.problems(in: cassette) == [])
        try breakage.damage(&cassette)

        // When the contract is checked
        let problems = RecordingsContract.problems(in: cassette)

        // Then it fails with one sentence naming where and what
        #expect(problems == breakage.problems)
    }
}

extension Cassette {
    /// Replaces interaction `index`'s JSON response body by `edit` of it.
    mutating func editResponse(_ index: Int, _ edit: (CassetteJSON) -> CassetteJSON) throws {
        guard var response = interactions[index].response, case .json(let json, _) = response.body.form else {
            throw FixtureProblem("\(name) interaction \(index) has no JSON response")
        }
        response.body = .json(edit(json))
        interactions[index].outcome = .response(response)
    }
}

extension CassetteJSON {
    /// One step into a document.
    enum Step {
        case key(String)
        case index(Int)
    }

    /// This document with the value at `path` replaced by `value`, or removed when `value` is `nil`.
    /// A path that leads nowhere leaves the document as it is.
    func replacing(_ path: [Step], with value: CassetteJSON?) -> CassetteJSON {
        guard let step = path.first else { return value ?? .null }
        let rest = Array(path.dropFirst())
        switch (self, step) {
        case (.object(var members), .key(let key)):
            members[key] = rest.isEmpty ? value : members[key]?.replacing(rest, with: value)
            return .object(members)
        case (.array(var elements), .index(let index)) where elements.indices.contains(index):
            if !rest.isEmpty {
                elements[index] = elements[index].replacing(rest, with: value)
            } else if let value {
                elements[index] = value
            } else {
                elements.remove(at: index)
            }
            return .array(elements)
        default:
            return self
        }
    }
}
