import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ExampleServices
import ServiceKitTesting
import Testing

@Suite struct StackExchangeQuestionsServiceTests {
    static let baseURL = "https://api.stackexchange.com"

    static func item(
        id: Int, title: String = "Why doesn&#39;t &quot;this&quot; work &amp; compile?",
        owner: JSONValue = [
            "account_id": 1, "reputation": 1, "user_id": 1, "user_type": "registered",
            "profile_image": "https://www.gravatar.com/avatar/x",
            "display_name": "Fran&#231;ois", "link": "https://stackoverflow.com/users/1/f",
        ]
    ) -> JSONValue {
        [
            "tags": ["swift", "ios"], "owner": owner, "is_answered": true, "view_count": 10, "answer_count": 1, "score": 3,
            "last_activity_date": 1_700_000_000, "creation_date": 1_699_990_000, "question_id": .integer(id),
            "content_license": "CC BY-SA 4.0", "link": .string("https://stackoverflow.com/questions/\(id)/why"),
            "title": .string(title),
        ]
    }

    static func page(_ items: [JSONValue], hasMore: Bool = false, backoff: Int? = nil) -> JSONValue {
        var page: [String: JSONValue] = [
            "items": .array(items), "has_more": .bool(hasMore), "quota_max": 300,
            "quota_remaining": 287,
        ]
        if let backoff {
            page["backoff"] = .integer(backoff)
        }
        return .object(page)
    }

    func send(
        _ service: StackExchangeQuestionsService, _ steps: ScriptedTransport.Step...
    ) async throws(WebServiceError)
        -> (StackExchangeQuestionsPage, ScriptedTransport)
    {
        let transport = ScriptedTransport(steps)
        return (try await makeClient(transport, baseURL: Self.baseURL).send(service), transport)
    }

    @Test func request_sendsEveryParameterWithTagsJoined() async throws {
        let service = StackExchangeQuestionsService(
            site: "stackoverflow", tagged: ["swift", "ios"], sort: .votes,
            order: .desc, page: 2, pageSize: 50)
        let (_, transport) = try await send(service, .json(Self.page([])))
        #expect(
            transport.requests.first?.url?.absoluteString == "https://api.stackexchange.com/2.3/questions"
                + "?site=stackoverflow&tagged=swift%3Bios&sort=votes&order=desc&page=2&pagesize=50")
    }

    @Test func request_onlySite_sendsOnlySite() async throws {
        let (_, transport) = try await send(StackExchangeQuestionsService(site: "stackoverflow"), .json(Self.page([])))
        #expect(transport.requests.first?.url?.query == "site=stackoverflow")
    }

    @Test func response_mapsItemsDecodingEntitiesAndTheWrapper() async throws {
        // Given the real response shape, with entities, a deleted owner and a backoff
        let deleted: JSONValue = ["user_type": "does_not_exist", "display_name": "user123"]
        let (page, _) = try await send(
            StackExchangeQuestionsService(site: "stackoverflow"),
            .json(
                Self.page(
                    [Self.item(id: 77_000_001), Self.item(id: 77_000_002, title: "Plain", owner: deleted)],
                    hasMore: true, backoff: 10)))
        // Then every field is mapped
        #expect(page.hasMore)
        #expect(page.quotaMax == 300)
        #expect(page.quotaRemaining == 287)
        #expect(page.backoff == 10)
        #expect(
            page.items.first
                == StackExchangeQuestion(
                    id: 77_000_001, title: "Why doesn't \"this\" work & compile?", score: 3, tags: ["swift", "ios"],
                    ownerDisplayName: "François", link: URL(string: "https://stackoverflow.com/questions/77000001/why")!,
                    creationDate: Date(timeIntervalSince1970: 1_699_990_000), isAnswered: true, viewCount: 10, answerCount: 1))
        #expect(page.items.last?.ownerDisplayName == "user123")
        #expect(page.items.last?.title == "Plain")
    }

    @Test func response_ownerWithoutDisplayName_namesTheKeyPath() async {
        let items = (0..<3).map { Self.item(id: $0) } + [Self.item(id: 3, owner: ["user_type": "does_not_exist"])]
        let error = await #expect(throws: WebServiceError.self) {
            try await send(StackExchangeQuestionsService(site: "stackoverflow"), .json(Self.page(items)))
        }
        #expect(error?.reason == .service(.missingField("$.items[3].owner.display_name")))
    }

    static let errorCases: [(Int, JSONValue, WebServiceError.Service)] = [
        (
            400, ["error_id": 400, "error_message": "site is required", "error_name": "bad_parameter"],
            .httpStatus(400, message: "site is required")
        ),
        (
            400,
            [
                "error_id": 502, "error_name": "throttle_violation",
                "error_message": "too many requests from this IP, more requests available in 81732 seconds",
            ],
            .rateLimited(retryAfter: 81732)
        ),
        (
            200,
            [
                "error_id": 502, "error_name": "throttle_violation",
                "error_message": "too many requests from this IP, more requests available in 1 second",
            ],
            .rateLimited(retryAfter: 1)
        ),
        (
            200, ["error_id": 400, "error_message": "site is required", "error_name": "bad_parameter"],
            .errorPayload(code: "bad_parameter", message: "site is required")
        ),
        (404, ["error_id": 404, "error_name": "no_method"], .httpStatus(404, message: nil)),
        (200, ["error_id": 404, "error_name": "no_method"], .errorPayload(code: "no_method", message: nil)),
    ]

    @Test(arguments: errorCases)
    func errorPayloads_areServiceLevel(status: Int, body: JSONValue, expected: WebServiceError.Service) async {
        let error = await #expect(throws: WebServiceError.self) {
            try await send(StackExchangeQuestionsService(site: "stackoverflow"), .json(body, status: status))
        }
        #expect(error?.reason == .service(expected))
    }

    @Test func unknownHost_isNetworkLevel() async {
        let error = await #expect(throws: WebServiceError.self) {
            try await send(StackExchangeQuestionsService(site: "stackoverflow"), .fail(URLError(.cannotFindHost)))
        }
        #expect(error?.reason == .network(.cannotFindHost))
    }

    @Test func pages_followHasMoreAndHonourBackoff() async throws {
        // Given two pages, the first asking for a 10 s backoff
        let transport = ScriptedTransport(
            .json(Self.page([Self.item(id: 1)], hasMore: true, backoff: 10)),
            .json(Self.page([Self.item(id: 2)])))
        let clock = VirtualClock()
        var ids: [Int] = []
        // When every page is iterated
        for try await page in makeClient(transport, baseURL: Self.baseURL, clock: clock)
            .pages(of: StackExchangeQuestionsService(site: "stackoverflow", pageSize: 1))
        {
            ids += page.items.map(\.id)
        }
        // Then page 2 was asked for after waiting 10 s on the client's clock, and iteration stopped
        #expect(ids == [1, 2])
        #expect(
            transport.requests.map { $0.url?.query } == [
                "site=stackoverflow&pagesize=1",
                "site=stackoverflow&page=2&pagesize=1",
            ])
        #expect(clock.sleeps == [10])
    }
}
