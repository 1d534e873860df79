import Foundation
import ServiceKit

/// Lists questions on a Stack Exchange site (`GET /2.3/questions`). Iterate every page with
/// `client.pages(of:)`: the next page is `page + 1` while `has_more` is true, waiting `backoff` seconds when
/// the API asks for it.
///
/// Errors come as `{"error_id", "error_name", "error_message"}`, even in a 200: `throttle_violation`
/// (error id 502) is `.rateLimited` with the delay from its message; any other is `.httpStatus` under an
/// error status and `.errorPayload` in a 2xx.
public struct StackExchangeQuestionsService: PaginatedService {
    /// How questions are ordered.
    public enum Sort: String, ParameterConvertible, CaseIterable, Sendable {
        /// By last activity.
        case activity
        /// By score.
        case votes
        /// By creation date.
        case creation
        /// By the site's "hot" formula.
        case hot
        /// Hot this week.
        case week
        /// Hot this month.
        case month
    }

    /// Sort direction.
    public enum Order: String, ParameterConvertible, CaseIterable, Sendable {
        /// Highest or newest first.
        case desc
        /// Lowest or oldest first.
        case asc
    }

    /// The site, such as `stackoverflow` (required by the API).
    public var site: String
    /// Only questions carrying all these tags; sent joined by `;`. Empty sends nothing.
    public var tagged: [String]
    /// The ordering; the API's default (activity) when `nil`.
    public var sort: Sort?
    /// The direction; the API's default (desc) when `nil`.
    public var order: Order?
    /// The page, from 1; the API's default (1) when `nil`.
    public var page: Int?
    /// Questions per page (the API allows up to 100); its default (30) when `nil`.
    public var pageSize: Int?

    /// A questions call; only `site` is needed.
    public init(
        site: String, tagged: [String] = [], sort: Sort? = nil, order: Order? = nil, page: Int? = nil,
        pageSize: Int? = nil
    ) {
        self.site = site
        self.tagged = tagged
        self.sort = sort
        self.order = order
        self.page = page
        self.pageSize = pageSize
    }

    /// `/2.3/questions`.
    public var endpoint: String { "/2.3/questions" }
    /// `site`, `tagged`, `sort`, `order`, `page`, `pagesize`.
    public var parameters: Parameters {
        ["site": site, "tagged": tagged, "sort": sort, "order": order, "page": page, "pagesize": pageSize]
    }
    /// Tags joined by `;`, dates in epoch seconds as the API reads them.
    public var parameterFormatting: ParameterFormatting { ParameterFormatting(dates: .secondsSince1970, arrays: .joined(";")) }

    /// Stack Exchange's error payloads first, then the common shapes.
    public func serviceError(in reply: RawResponse) -> WebServiceError.Service? {
        StackExchangeErrors.serviceError(in: reply)
    }

    /// Reads the wrapper and every item; see ``StackExchangeQuestion`` for what is required.
    public func response(from json: JSON) throws -> StackExchangeQuestionsPage {
        StackExchangeQuestionsPage(
            items: try json["items"].required.array.map(StackExchangeQuestion.init(json:)),
            hasMore: try json["has_more"].required.bool,
            quotaMax: json["quota_max"].int,
            quotaRemaining: try json["quota_remaining"].required.int,
            backoff: json["backoff"].double)
    }

    /// The following page while `has_more` is true.
    public func nextPage(after page: StackExchangeQuestionsPage, reply: RawResponse) -> StackExchangeQuestionsService? {
        guard page.hasMore else { return nil }
        var next = self
        next.page = (self.page ?? 1) + 1
        return next
    }

    /// The API's `backoff`, which clients must honour before calling the same method again.
    public func delayBeforeNextPage(after page: StackExchangeQuestionsPage) -> TimeInterval? {
        page.backoff
    }
}
