import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit

/// What every GitHub service shares: its request headers and its rate-limit signals.
enum GitHubAPI {
    /// The media type and API version GitHub asks clients to send.
    static func configure(_ request: inout URLRequest) {
        request.setValue("application/vnd.github+json", forHTTPHeaderField: "Accept")
        request.setValue("2022-11-28", forHTTPHeaderField: "X-GitHub-Api-Version")
    }

    /// A 403 or 429 is a rate limit when it has `Retry-After` (secondary limits: wait that long) or
    /// `X-RateLimit-Remaining: 0` (primary limit: wait until `X-RateLimit-Reset`, epoch seconds, rounded up).
    /// A 429 without either is a rate limit of unknown length. Anything else: the common shapes.
    static func serviceError(in reply: RawResponse) -> WebServiceError.Service? {
        guard reply.statusCode == 403 || reply.statusCode == 429 else { return reply.commonServiceError }
        if let retryAfter = reply.retryAfter {
            return .rateLimited(retryAfter: retryAfter)
        }
        if reply.headers["X-RateLimit-Remaining"]?.trimmingCharacters(in: .whitespaces) == "0" {
            let reset = reply.headers["X-RateLimit-Reset"].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            return .rateLimited(retryAfter: reset.map { max(0, ($0 - reply.receivedAt.timeIntervalSince1970).rounded(.up)) })
        }
        return reply.commonServiceError
    }
}
