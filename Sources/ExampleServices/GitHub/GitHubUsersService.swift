import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit

/// Lists GitHub users in sign-up order (`GET /users?since=...&per_page=...`). Iterate every page with
/// `client.pages(of:)`: the next page is the `Link` header's `rel="next"`.
///
/// Rate limits (403 or 429 with `X-RateLimit-Remaining: 0`, or with `Retry-After`) end as `.rateLimited`
/// with the wait until `X-RateLimit-Reset` (or the `Retry-After`); see ``GitHubUserService``.
public struct GitHubUsersService: PaginatedService {
    /// Only users with an id greater than this.
    public var since: Int?
    /// Users per page (the API allows up to 100; its default is 30).
    public var perPage: Int?

    /// A users call.
    public init(since: Int? = nil, perPage: Int? = nil) {
        self.since = since
        self.perPage = perPage
    }

    /// `/users`.
    public var endpoint: String { "/users" }
    /// `since` and `per_page`.
    public var parameters: Parameters { ["since": since, "per_page": perPage] }

    /// GitHub's media type and API version.
    public func configure(_ request: inout URLRequest) {
        GitHubAPI.configure(&request)
    }

    /// GitHub's rate limits first, then the common shapes.
    public func serviceError(in reply: RawResponse) -> WebServiceError.Service? {
        GitHubAPI.serviceError(in: reply)
    }

    /// Reads the array of users; see ``GitHubUser`` for what is required.
    public func response(from json: JSON) throws -> [GitHubUser] {
        try json.required.array.map(GitHubUser.init(json:))
    }

    /// The service for the `Link` header's `rel="next"` target, reading its `since` and `per_page`.
    public func nextPage(after page: [GitHubUser], reply: RawResponse) -> GitHubUsersService? {
        guard let next = reply.links["next"],
            let items = URLComponents(url: next, resolvingAgainstBaseURL: false)?.queryItems,
            let since = items.first(where: { $0.name == "since" })?.value.flatMap(Int.init)
        else { return nil }
        let perPage = items.first(where: { $0.name == "per_page" })?.value.flatMap(Int.init)
        return GitHubUsersService(since: since, perPage: perPage ?? self.perPage)
    }
}
