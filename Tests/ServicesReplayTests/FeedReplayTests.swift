import Foundation
@testable import MockServer
import ServiceKit
import ExampleServices
import Testing

/// `FeedService` against `Recordings/feed/feeds.json` over loopback HTTP: numbers, numeric strings, an
/// empty page past the end, and an error payload inside a 200.
@Suite(.timeLimit(.minutes(1))) struct FeedReplayTests {
    static let cassette = "feed/feeds"

    @Test(arguments: [1, 2, 3])
    func page_mapsEveryField_fromTheRecording(page number: Int) async throws {
        // Given recorded page `number` (page 2 sends its numbers as strings, page 3 is empty with a message)
        let recorded = try Recordings.cassette(Self.cassette).responseJSON(number - 1)
        try await withReplay(Self.cassette, faults: .none) { replay in
            // When that page is fetched
            let page = try await replay.client.send(FeedService(page: number, pageSize: 3))

            // Then it reads as recorded
            Self.expect(page, matches: recorded)
        }
    }

    @Test func emptyPage_keepsTheAPIsMessage() async throws {
        // Given the recorded page past the end
        let recorded = try Recordings.cassette(Self.cassette).responseJSON(2)
        try await withReplay(Self.cassette, faults: .none) { replay in
            // When it is fetched
            let page = try await replay.client.send(FeedService(page: 3, pageSize: 3))

            // Then it has no items and the API's sentence
            #expect(page.items.isEmpty)
            #expect(page.noResultsMessage == recorded["message"]?.string)
            #expect(page.noResultsMessage != nil)
        }
    }

    @Test func pages_followThePageNumbers_untilPageCount() async throws {
        // Given two recorded pages (pageCount 2), the second with its numbers as strings
        let cassette = try Recordings.cassette(Self.cassette)
        let (first, second) = (try cassette.responseJSON(0), try cassette.responseJSON(1))
        #expect(second["currentPage"] == .string("2"))
        try await withReplay(Self.cassette, faults: .none) { replay in
            // When every page is iterated
            var pages: [FeedPage] = []
            for try await page in replay.client.pages(of: FeedService(page: 1, pageSize: 3), maxPages: 5) {
                pages.append(page)
            }

            // Then pages 1 and 2 arrive and iteration stops at pageCount
            try #require(pages.count == 2)
            Self.expect(pages[0], matches: first)
            Self.expect(pages[1], matches: second)
            #expect(replay.server.journal.entries.map(\.request.target) == ["/feeds?page=1&pageSize=3", "/feeds?page=2&pageSize=3"])
        }
    }

    @Test func feed_underMaintenance_isAnErrorPayloadInsideA200() async throws {
        // Given the maintenance template: status 200 with {"error": "maintenance", "message": ...}
        let cassette = try Recordings.cassette(Self.cassette)
        #expect(try cassette.template("maintenance").status == 200)
        let message = try #require(try cassette.templateJSON("maintenance")["message"]?.string)
        try await withReplay(Self.cassette, faults: .specs("service-error=maintenance")) { replay in
            // When the first page is fetched
            let error = await #expect(throws: WebServiceError.self) {
                try await replay.client.send(FeedService(page: 1, pageSize: 3))
            }

            // Then the 200 is an error payload with the API's code and sentence
            #expect(error?.reason == .service(.errorPayload(code: "maintenance", message: message)))
        }
    }

    /// Compares a page with its recording field by field.
    static func expect(_ page: FeedPage, matches recorded: CassetteJSON) {
        #expect(page.currentPage == recorded["currentPage"]?.int)
        #expect(page.pageCount == recorded["pageCount"]?.int)
        #expect(page.resultCount == recorded["resultCount"]?.int)
        let list = recorded["list"]?.elements ?? []
        #expect(page.items.count == list.count)
        for (item, entry) in zip(page.items, list) {
            #expect(item.status == entry["status"]?.string)
            #expect(item.userID == entry["userId"]?.int)
            #expect(item.userName == entry["userName"]?.string)
        }
        #expect(page.noResultsMessage == (list.isEmpty ? recorded["message"]?.string : nil))
    }
}
