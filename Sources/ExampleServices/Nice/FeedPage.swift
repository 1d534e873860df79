/// One page of the feed.
public struct FeedPage: Hashable, Sendable {
    /// This page's number, from 1.
    public var currentPage: Int
    /// How many pages exist; 0 when there are no results.
    public var pageCount: Int
    /// How many entries exist across all pages.
    public var resultCount: Int
    /// This page's entries.
    public var items: [FeedItem]
    /// The API's text for an empty result ("No feeds found."), only when `items` is empty.
    public var noResultsMessage: String?

    /// A feed page.
    public init(currentPage: Int, pageCount: Int, resultCount: Int, items: [FeedItem], noResultsMessage: String? = nil) {
        self.currentPage = currentPage
        self.pageCount = pageCount
        self.resultCount = resultCount
        self.items = items
        self.noResultsMessage = noResultsMessage
    }
}
