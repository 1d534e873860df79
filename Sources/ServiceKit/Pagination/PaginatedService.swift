import Foundation

/// A service whose results come in pages. It says how to ask for the page after one it received, which
/// covers the three common styles:
/// - page number: `nextPage` returns a copy with `page + 1` while the response says more exist
///   (`has_more`, `currentPage < pageCount`);
/// - cursor: a copy carrying the response's cursor, until the cursor is absent;
/// - `Link` header: a copy built from `reply.links["next"]`, until there is none.
///
/// Iterate with ``WebServiceClient/pages(of:maxPages:)``.
public protocol PaginatedService: WebService {
    /// The service that fetches the page after `page`, which arrived in `reply`; `nil` when `page` is the
    /// last one.
    func nextPage(after page: Response, reply: RawResponse) -> Self?

    /// Seconds to wait before asking for the page after `page`, when the API asks clients to slow down
    /// (Stack Exchange's `backoff`). Waited on the client's clock. Default: `nil`, no wait.
    func delayBeforeNextPage(after page: Response) -> TimeInterval?
}

extension PaginatedService {
    /// No wait.
    public func delayBeforeNextPage(after page: Response) -> TimeInterval? { nil }
}
