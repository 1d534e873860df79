import Foundation
import ServiceReplayShared

/// A complete HTTP response as the service's hooks see it: status, headers, body, and the body's JSON,
/// parsed exactly once here and shared by error detection and mapping.
public struct RawResponse: Sendable {
    /// The HTTP status code.
    public let statusCode: Int
    /// The header fields.
    public let headers: ResponseHeaders
    /// The body bytes, decompressed.
    public let body: Data
    /// The URL the response came from, after redirects, when known.
    public let url: URL?
    /// When the response arrived, on the client's clock; relative header dates are measured from it.
    public let receivedAt: Date
    /// The body's JSON at its root; `nil` when the body is empty, is not JSON by its `Content-Type`
    /// (a missing `Content-Type` counts as JSON), or does not parse.
    public let json: JSON?
    /// Why ``json`` is `nil`: `.undecodableBody` (empty or unparseable) or `.wrongContentType`.
    let bodyProblem: WebServiceError?

    /// A response; the body is parsed as JSON now, once.
    public init(statusCode: Int, headers: ResponseHeaders, body: Data, url: URL? = nil, receivedAt: Date = Date()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
        self.receivedAt = receivedAt
        let contentType = Self.mediaType(of: headers["Content-Type"])
        if body.isEmpty {
            (json, bodyProblem) = (nil, .service(.undecodableBody, statusCode: statusCode))
        } else if let contentType, !Self.isJSON(contentType) {
            (json, bodyProblem) = (nil, .service(.wrongContentType(contentType), statusCode: statusCode))
        } else {
            do {
                let document = try JSONDocument.parse(body)
                (json, bodyProblem) =
                    document.map { (JSON(document: $0), nil) }
                    ?? (nil, .service(.undecodableBody, statusCode: statusCode))
            } catch {
                (json, bodyProblem) = (nil, .service(.undecodableBody, underlyingError: error, statusCode: statusCode))
            }
        }
    }

    /// The body's JSON at its root, or the service-level error saying why there is none: `.undecodableBody`
    /// (empty, or not JSON) or `.wrongContentType`, as the default ``WebService/decodeResponse(_:)`` throws
    /// them. For a mapping that reads headers as well as the body:
    ///
    /// ```swift
    /// func decodeResponse(_ reply: RawResponse) throws -> Versioned {
    ///     Versioned(task: try response(from: reply.requiredJSON), etag: reply.etag)
    /// }
    /// ```
    public var requiredJSON: JSON {
        get throws(WebServiceError) {
            guard let json else { throw bodyProblem ?? .service(.undecodableBody, statusCode: statusCode) }
            return json
        }
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(statusCode) }

    /// The media type of `Content-Type`, lower-cased and without parameters (`application/json`).
    public var contentType: String? { Self.mediaType(of: headers["Content-Type"]) }

    /// Seconds the server asked the caller to wait, from `Retry-After` in either form (seconds or HTTP-date,
    /// the latter measured from ``receivedAt``); `nil` when absent or unreadable.
    public var retryAfter: TimeInterval? {
        headers["Retry-After"].flatMap { RetryAfter.seconds(from: $0, now: receivedAt) }
    }

    /// The `ETag` header as the server sent it, quotes and any `W/` included (`"1434641515332"`,
    /// `W/"0815"`), ready to go back in a ``RequestCondition``; the first one when there are several, `nil`
    /// when there is none.
    public var etag: String? {
        headers.values(for: "ETag").first
    }

    /// The `Link` header's targets by relation (`links["next"]`), resolved against ``url``; a relation
    /// named twice keeps its first target.
    public var links: [String: URL] {
        LinkHeader.targets(in: headers.values(for: "Link"), relativeTo: url)
    }

    private static func mediaType(of header: String?) -> String? {
        guard let header else { return nil }
        let type = header.split(separator: ";", maxSplits: 1).first.map(String.init) ?? header
        let trimmed = type.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    private static func isJSON(_ mediaType: String) -> Bool {
        mediaType == "application/json" || mediaType == "text/json" || mediaType.hasSuffix("+json")
    }
}
