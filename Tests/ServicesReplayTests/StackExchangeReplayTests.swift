import Foundation
@testable import MockServer
import ServiceKit
import ExampleServices
import Testing

/// `StackExchangeQuestionsService` against `Recordings/stackexchange/questions.json` over loopback HTTP.
@Suite(.timeLimit(.minutes(1))) struct StackExchangeReplayTests {
    static let cassette = "stackexchange/questions"

    /// Titles and names as a person reads them: the API leaves HTML entities in (`&quot;`, `&#39;`).
    static let decodedTitles = [
        #"How to fix "Sending 'self' risks causing data races" when calling an actor from a Task in Swift 6?"#,
        "SwiftUI List selection doesn't update when the model is @Observable",
        "Decoding a JSON number that sometimes arrives as a string with Codable",
        #"URLSession on Linux fails with "The operation could not be completed" using FoundationNetworking"#,
        "Swift Testing: parameterize a @Test with tuples of input and expected output",
        "Why do I need await to read an actor's property from a nonisolated function?",
    ]
    static let decodedOwners = ["Mara Lindqvist", "D'Arcy Okafor", "Tomasz Wierzbicki", "user30911842", "Priya Raman", "kenji.dev"]

    @Test func questions_mapEveryField_fromTheRecordedPage() async throws {
        // Given the recorded first page
        let recorded = try Recordings.cassette(Self.cassette).responseJSON(0)
        try await withReplay(Self.cassette, faults: .none) { replay in
            // When the first page of swift questions is fetched
            let page = try await replay.client.send(StackExchangeQuestionsService.swiftPage(1))

            // Then the wrapper and every item read as recorded
            try Self.expect(page, matches: recorded, titles: Self.decodedTitles[0..<3], owners: Self.decodedOwners[0..<3])
            #expect(page.backoff == nil)
        }
    }

    @Test func pages_followHasMore_untilTheLastPage() async throws {
        // Given the two recorded pages, the second with has_more false and a backoff
        let cassette = try Recordings.cassette(Self.cassette)
        let (first, second) = (try cassette.responseJSON(0), try cassette.responseJSON(1))
        try await withReplay(Self.cassette, faults: .none) { replay in
            // When every page is iterated
            var pages: [StackExchangeQuestionsPage] = []
            for try await page in replay.client.pages(of: StackExchangeQuestionsService.swiftPage(1), maxPages: 5) {
                pages.append(page)
            }

            // Then both pages arrive, page=1 then page=2, and iteration stops at has_more false
            try #require(pages.count == 2)
            try Self.expect(pages[0], matches: first, titles: Self.decodedTitles[0..<3], owners: Self.decodedOwners[0..<3])
            try Self.expect(pages[1], matches: second, titles: Self.decodedTitles[3..<6], owners: Self.decodedOwners[3..<6])
            #expect(pages[1].backoff == second["backoff"]?.double)
            #expect(replay.server.journal.entries.map { $0.request.query?.contains("page=2") } == [false, true])
            // And the backoff after the last page is never waited, since nothing follows it
            #expect(replay.clock.sleeps == [])
        }
    }

    @Test func questions_withoutSite_isTheRecordedBadParameter() async throws {
        // Given the recorded 400 bad_parameter for a call without site
        let recorded = try Recordings.cassette(Self.cassette).responseJSON(2)
        let message = try #require(recorded["error_message"]?.string)
        try await withReplay(Self.cassette, faults: .none) { replay in
            // When the questions call is sent without site
            let error = await #expect(throws: WebServiceError.self) {
                try await replay.client.send(QuestionsWithoutSite(StackExchangeQuestionsService.swiftPage(1)))
            }

            // Then it is HTTP 400 with the API's error_message
            #expect(error?.reason == .service(.httpStatus(400, message: message)))
            #expect(replay.server.journal.entries.map(\.outcome.kind) == [.matched])
        }
    }

    /// Template → the error it must end in. Messages are read from the template.
    static let templates: [(template: String, expected: @Sendable (String) -> WebServiceError.Reason)] = [
        ("bad_parameter", { .service(.httpStatus(400, message: $0)) }),
        ("access_token_required", { .service(.httpStatus(400, message: $0)) }),
        ("internal_error", { .service(.httpStatus(400, message: $0)) }),
        ("no_method", { .service(.httpStatus(400, message: $0)) }),
        // "more requests available in 81732 seconds": rate limiting, with the delay from the message
        ("throttle_violation", { _ in .service(.rateLimited(retryAfter: 81_732)) }),
        ("throttle_violation_in_200", { _ in .service(.rateLimited(retryAfter: 81_732)) }),
    ]

    @Test(arguments: templates.map(\.template))
    func questions_underAnErrorTemplate_endInTheAPIsError(template: String) async throws {
        // Given a server answering with one of the API's error payloads
        let templateJSON = try Recordings.cassette(Self.cassette).templateJSON(template)
        let message = try #require(templateJSON["error_message"]?.string)
        let expected = try #require(Self.templates.first { $0.template == template }).expected(message)
        try await withReplay(Self.cassette, faults: .specs("service-error=\(template)")) { replay in
            // When the first page is fetched
            let error = await #expect(throws: WebServiceError.self) {
                try await replay.client.send(StackExchangeQuestionsService.swiftPage(1))
            }

            // Then the payload is recognised, whatever the status it came under
            #expect(error?.reason == expected)
        }
    }

    @Test func throttleViolation_isRecognisedInsideA200() async throws {
        // Given the throttle_violation payload recorded under status 200
        let template = try Recordings.cassette(Self.cassette).template("throttle_violation_in_200")
        #expect(template.status == 200)
        try await withReplay(Self.cassette, faults: .specs("service-error=throttle_violation_in_200")) { replay in
            // When the first page is fetched
            let error = await #expect(throws: WebServiceError.self) {
                try await replay.client.send(StackExchangeQuestionsService.swiftPage(1))
            }

            // Then a 200 does not hide it: rate limited, with the status kept for debugging
            #expect(error?.reason == .service(.rateLimited(retryAfter: 81_732)))
            #expect(error?.statusCode == 200)
        }
    }

    /// Compares a page with its recording field by field.
    static func expect(
        _ page: StackExchangeQuestionsPage, matches recorded: CassetteJSON, titles: ArraySlice<String>,
        owners: ArraySlice<String>
    ) throws {
        #expect(page.hasMore == recorded["has_more"]?.bool)
        #expect(page.quotaMax == recorded["quota_max"]?.int)
        #expect(page.quotaRemaining == recorded["quota_remaining"]?.int)
        let items = try #require(recorded["items"]?.elements)
        try #require(page.items.count == items.count)
        for (index, (question, item)) in zip(page.items, items).enumerated() {
            #expect(question.id == item["question_id"]?.int)
            #expect(question.title == titles[titles.startIndex + index])
            #expect(question.score == item["score"]?.int)
            #expect(question.tags == item["tags"]?.elements?.compactMap(\.string))
            #expect(question.ownerDisplayName == owners[owners.startIndex + index])
            #expect(question.link == item["link"]?.url)
            #expect(question.creationDate == item["creation_date"]?.double.map(Date.init(timeIntervalSince1970:)))
            #expect(question.isAnswered == item["is_answered"]?.bool)
            #expect(question.viewCount == item["view_count"]?.int)
            #expect(question.answerCount == item["answer_count"]?.int)
        }
    }
}

/// The questions call without `site`. ServiceKit's service cannot leave `site` out (the API requires it),
/// but the cassette records what the API answers when it is missing; everything except the parameters is
/// the real service's, so the recorded error goes through the real error detection.
struct QuestionsWithoutSite: WebService {
    let base: StackExchangeQuestionsService

    init(_ base: StackExchangeQuestionsService) {
        self.base = base
    }

    var endpoint: String { base.endpoint }
    var parameters: Parameters {
        var parameters = base.parameters
        parameters.set("site", to: nil)
        return parameters
    }
    var parameterFormatting: ParameterFormatting { base.parameterFormatting }

    func serviceError(in reply: RawResponse) -> WebServiceError.Service? {
        base.serviceError(in: reply)
    }

    func response(from json: JSON) throws -> StackExchangeQuestionsPage {
        try base.response(from: json)
    }
}
