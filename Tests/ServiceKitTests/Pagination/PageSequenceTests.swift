import Foundation
import ServiceKit
import ServiceKitTesting
import Testing

@Suite struct PageSequenceTests {
    /// Page-number style: `page` grows while the response says `has_more`.
    struct NumberedService: PaginatedService {
        var page = 1
        var endpoint: String { "/items" }
        var parameters: Parameters { ["page": page] }
        func response(from json: JSON) throws -> [String] { try json["items"].required.array.map { try $0.required.string } }
        func nextPage(after page: [String], reply: RawResponse) -> NumberedService? {
            reply.json?["has_more"].bool == true ? NumberedService(page: self.page + 1) : nil
        }
        func delayBeforeNextPage(after page: [String]) -> TimeInterval? { page.contains("slow") ? 10 : nil }
    }

    /// Cursor style: the response names the cursor of the next page until it has none.
    struct CursorService: PaginatedService {
        struct Page: Sendable, Equatable {
            let items: [Int]
            let nextCursor: String?
        }
        var cursor: String?
        var endpoint: String { "/feed" }
        var parameters: Parameters { ["cursor": cursor] }
        func response(from json: JSON) throws -> Page {
            Page(items: try json["items"].required.array.map { try $0.required.int }, nextCursor: json["next_cursor"].string)
        }
        func nextPage(after page: Page, reply: RawResponse) -> CursorService? {
            page.nextCursor.map { CursorService(cursor: $0) }
        }
    }

    /// Link-header style: the next page is wherever `rel="next"` points.
    struct LinkedService: PaginatedService {
        var since: Int?
        var endpoint: String { "/users" }
        var parameters: Parameters { ["since": since] }
        func response(from json: JSON) throws -> [Int] { try json.required.array.map { try $0["id"].required.int } }
        func nextPage(after page: [Int], reply: RawResponse) -> LinkedService? {
            guard let next = reply.links["next"],
                let since = URLComponents(url: next, resolvingAgainstBaseURL: false)?
                    .queryItems?.first(where: { $0.name == "since" })?.value.flatMap(Int.init)
            else { return nil }
            return LinkedService(since: since)
        }
    }

    func collect<Service: PaginatedService>(_ pages: PageSequence<Service>) async throws -> [Service.Response] {
        var collected: [Service.Response] = []
        for try await page in pages {
            collected.append(page)
        }
        return collected
    }

    @Test func pageNumberStyle_fetchesUntilNoMore() async throws {
        // Given three pages, the last without more
        let transport = ScriptedTransport(
            .json(["items": ["a"], "has_more": true]),
            .json(["items": ["b"], "has_more": true]),
            .json(["items": ["c"], "has_more": false]))
        // When all pages are iterated
        let pages = try await collect(makeClient(transport).pages(of: NumberedService()))
        // Then each page was asked for by number, and iteration stopped when the API said so
        #expect(pages == [["a"], ["b"], ["c"]])
        #expect(transport.requests.map { $0.url?.query } == ["page=1", "page=2", "page=3"])
    }

    @Test func cursorStyle_followsCursorsUntilAbsent() async throws {
        let transport = ScriptedTransport(
            .json(["items": [1, 2], "next_cursor": "c2"]),
            .json(["items": [3], "next_cursor": "c3"]), .json(["items": []]))
        let pages = try await collect(makeClient(transport).pages(of: CursorService()))
        #expect(pages.map(\.items) == [[1, 2], [3], []])
        #expect(transport.requests.map { $0.url?.query } == [nil, "cursor=c2", "cursor=c3"])
    }

    @Test func linkHeaderStyle_followsNextUntilAbsent() async throws {
        let transport = ScriptedTransport(
            .json([["id": 1], ["id": 2]], headers: [("Link", #"<https://api.example.test/users?since=2>; rel="next""#)]),
            .json([["id": 3]], headers: [("Link", #"<https://api.example.test/users{?since}>; rel="first""#)]))
        let pages = try await collect(makeClient(transport).pages(of: LinkedService()))
        #expect(pages == [[1, 2], [3]])
        #expect(transport.requests.map { $0.url?.query } == [nil, "since=2"])
    }

    @Test func maxPages_boundsTheSequence() async throws {
        let transport = ScriptedTransport(.json(["items": ["x"], "has_more": true]))
        let pages = try await collect(makeClient(transport).pages(of: NumberedService(), maxPages: 4))
        #expect(pages.count == 4)
        #expect(transport.requests.count == 4)
    }

    @Test func nothingIsFetchedBeforeIteration() {
        let transport = ScriptedTransport(.json(["items": [], "has_more": false]))
        _ = makeClient(transport).pages(of: NumberedService())
        #expect(transport.requests.isEmpty)
    }

    @Test func failure_isThrownAsWebServiceErrorAndEnds() async {
        let transport = ScriptedTransport(.json(["items": ["a"], "has_more": true]), .json(["message": "gone"], status: 410))
        var seen: [[String]] = []
        let error = await #expect(throws: WebServiceError.self) {
            for try await page in makeClient(transport).pages(of: NumberedService()) {
                seen.append(page)
            }
        }
        #expect(seen == [["a"]])
        #expect(error?.reason == .service(.httpStatus(410, message: "gone")))
    }

    @Test func cancellation_endsTheSequenceCleanly() async throws {
        // Given a second page that never arrives
        let transport = ScriptedTransport(.json(["items": ["a"], "has_more": true]), .hangUntilCancelled)
        let client = makeClient(transport)
        let iteration = Task {
            var pages: [[String]] = []
            for try await page in client.pages(of: NumberedService()) {
                pages.append(page)
            }
            return pages
        }
        for await count in transport.started where count == 2 { break }
        // When the iterating task is cancelled
        iteration.cancel()
        // Then the loop ends without an error, keeping the pages already received
        #expect(try await iteration.value == [["a"]])
        #expect(transport.cancellations == 1)
    }

    @Test func delayBeforeNextPage_waitsOnTheClientClock() async throws {
        let transport = ScriptedTransport(
            .json(["items": ["slow"], "has_more": true]),
            .json(["items": ["b"], "has_more": false]))
        let clock = VirtualClock()
        let pages = try await collect(makeClient(transport, clock: clock).pages(of: NumberedService()))
        #expect(pages == [["slow"], ["b"]])
        #expect(clock.sleeps == [10])
    }
}
