import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit

/// Fetches one GitHub user's profile (`GET /users/{login}`).
///
/// An unknown login arrives as 404 `{"message": "Not Found", ...}` and ends as
/// `.service(.httpStatus(404, message: "Not Found"))`. A rate limit (403 or 429 with
/// `X-RateLimit-Remaining: 0` or `Retry-After`) ends as `.service(.rateLimited(retryAfter:))` with the seconds
/// until `X-RateLimit-Reset`, measured on the client's clock, or the `Retry-After`.
public struct GitHubUserService: WebService {
    /// The user's login (`mojombo`); percent-encoded into the path.
    public var login: String

    /// A call for `login`'s profile.
    public init(login: String) {
        self.login = login
    }

    /// `/users/{login}`.
    public var endpoint: String { "/users/\(login)" }

    /// GitHub's media type and API version.
    public func configure(_ request: inout URLRequest) {
        GitHubAPI.configure(&request)
    }

    /// GitHub's rate limits first, then the common shapes.
    public func serviceError(in reply: RawResponse) -> WebServiceError.Service? {
        GitHubAPI.serviceError(in: reply)
    }

    /// Reads the user and the profile fields; see ``GitHubUserProfile``.
    public func response(from json: JSON) throws -> GitHubUserProfile {
        try GitHubUserProfile(json: json)
    }
}
