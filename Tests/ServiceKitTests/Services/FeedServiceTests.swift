import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ExampleServices
import ServiceKitTesting
import Testing

@Suite struct FeedServiceTests {
    static let baseURL = "https://api.nice.example/v1"

    static func page(_ number: Int, of count: Int) -> JSONValue {
        [
            "currentPage": .integer(number), "pageCount": .integer(count), "resultCount": 6,
            "list": [["status": .string("Post \(number)"), "userId": 1234, "userName": "JennCurativo"]],
        ]
    }

    @Test func request_sendsPageAndPageSize() async throws {
        let transport = ScriptedTransport(.json(Self.page(1, of: 1)))
        _ = try await makeClient(transport, baseURL: Self.baseURL).send(FeedService())
        #expect(transport.requests.first?.url?.absoluteString == "https://api.nice.example/v1/feeds?page=1&pageSize=20")
    }

    @Test func response_mapsCountersFromNumbersOrNumericStrings() async throws {
        let transport = ScriptedTransport(
            .json([
                "currentPage": "2", "pageCount": "3", "resultCount": 6,
                "list": [["status": "Test", "userId": "1234", "userName": "JennCurativo"]],
            ]))
        let page = try await makeClient(transport, baseURL: Self.baseURL).send(FeedService(page: 2))
        #expect(
            page
                == FeedPage(
                    currentPage: 2, pageCount: 3, resultCount: 6,
                    items: [FeedItem(status: "Test", userID: 1234, userName: "JennCurativo")]))
    }

    @Test func response_emptyPage_keepsTheNoResultsMessage() async throws {
        let transport = ScriptedTransport(
            .json([
                "currentPage": 1, "pageCount": 0, "resultCount": 0, "list": [],
                "message": "No feeds found.",
            ]))
        let page = try await makeClient(transport, baseURL: Self.baseURL).send(FeedService())
        #expect(page.items.isEmpty)
        #expect(page.noResultsMessage == "No feeds found.")
    }

    @Test func pages_followPageNumbersUntilPageCount() async throws {
        let transport = ScriptedTransport(.json(Self.page(1, of: 3)), .json(Self.page(2, of: 3)), .json(Self.page(3, of: 3)))
        var statuses: [String] = []
        for try await page in makeClient(transport, baseURL: Self.baseURL).pages(of: FeedService(pageSize: 2)) {
            statuses += page.items.map(\.status)
        }
        #expect(statuses == ["Post 1", "Post 2", "Post 3"])
        #expect(transport.requests.map { $0.url?.query } == ["page=1&pageSize=2", "page=2&pageSize=2", "page=3&pageSize=2"])
    }

    @Test func response_entryMissingAField_namesItsPath() async {
        let transport = ScriptedTransport(
            .json([
                "currentPage": 1, "pageCount": 1, "resultCount": 2,
                "list": [["status": "a", "userId": 1, "userName": "x"], ["status": "b", "userId": 2]],
            ]))
        let error = await #expect(throws: WebServiceError.self) {
            try await makeClient(transport, baseURL: Self.baseURL).send(FeedService())
        }
        #expect(error?.reason == .service(.missingField("$.list[1].userName")))
    }

    @Test func serverError_isServiceLevel() async {
        let transport = ScriptedTransport(.respond(.text("<h1>Bad gateway</h1>", status: 502, contentType: "text/html")))
        let error = await #expect(throws: WebServiceError.self) {
            try await makeClient(transport, baseURL: Self.baseURL).send(FeedService())
        }
        #expect(error?.reason == .service(.httpStatus(502, message: nil)))
    }

    @Test func timeout_isNetworkLevel_andRetriedForGET() async throws {
        let transport = ScriptedTransport(.fail(URLError(.timedOut)), .json(Self.page(1, of: 1)))
        let clock = VirtualClock()
        let page = try await makeClient(transport, baseURL: Self.baseURL, retryPolicy: RetryPolicy(jitter: 0), clock: clock)
            .send(FeedService())
        #expect(page.currentPage == 1)
        #expect(clock.sleeps == [0.5])
        let failing = ScriptedTransport(.fail(URLError(.timedOut)))
        let error = await #expect(throws: WebServiceError.self) {
            try await makeClient(failing, baseURL: Self.baseURL).send(FeedService())
        }
        #expect(error?.reason == .network(.timedOut))
    }
}
