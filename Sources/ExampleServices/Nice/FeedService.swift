import ServiceKit

/// One page of the Nice API's feed (`GET /feeds?page=...&pageSize=...`). Iterate every page with
/// `client.pages(of: FeedService())`: the next page is `currentPage + 1` while it is below `pageCount`.
public struct FeedService: PaginatedService {
    /// The page to fetch, from 1.
    public var page: Int
    /// How many entries a page holds.
    public var pageSize: Int

    /// A call for `page` (1 by default) of `pageSize` entries (20 by default).
    public init(page: Int = 1, pageSize: Int = 20) {
        self.page = page
        self.pageSize = pageSize
    }

    /// `/feeds`.
    public var endpoint: String { "/feeds" }
    /// `page` and `pageSize`.
    public var parameters: Parameters { ["page": page, "pageSize": pageSize] }

    /// Reads the counters (numbers or numeric strings), the `list`, and `message` when the list is empty.
    public func response(from json: JSON) throws -> FeedPage {
        let items = try json["list"].required.array.map { entry in
            FeedItem(
                status: try entry["status"].required.string, userID: try entry["userId"].required.int,
                userName: try entry["userName"].required.string)
        }
        return FeedPage(
            currentPage: try json["currentPage"].required.int, pageCount: try json["pageCount"].required.int,
            resultCount: try json["resultCount"].required.int, items: items,
            noResultsMessage: items.isEmpty ? json["message"].string : nil)
    }

    /// The following page while `currentPage` is below `pageCount`.
    public func nextPage(after page: FeedPage, reply: RawResponse) -> FeedService? {
        page.currentPage < page.pageCount ? FeedService(page: page.currentPage + 1, pageSize: pageSize) : nil
    }
}
