import Foundation

/// The real API a recording server forwards to: an `http` or `https` base URL, optionally with a base path
/// (`https://api.nice.example/v1`), without query, fragment or credentials.
///
/// A request for target `/login?x=1` is forwarded to the base URL followed by the target
/// (`https://api.nice.example/v1/login?x=1`); cassettes keep the target as the client sent it.
public struct Upstream: Sendable, Hashable, CustomStringConvertible {
    /// The base URL, without a trailing slash.
    public let url: URL

    /// Parses and checks `text`.
    /// - Throws: ``MockServerError`` with code `invalidUpstream` and one sentence when `text` is not an
    ///   `http` or `https` URL with a host, or has a query, a fragment or credentials.
    public init(_ text: String) throws(MockServerError) {
        guard let url = URL(string: text) else {
            throw MockServerError(.invalidUpstream, "'\(text)' is not a URL; give one such as https://api.example.com")
        }
        try self.init(url)
    }

    /// Checks `url`; see ``init(_:)-(String)`` for what is refused.
    public init(_ url: URL) throws(MockServerError) {
        let text = url.absoluteString
        func invalid(_ reason: String) -> MockServerError {
            MockServerError(.invalidUpstream, "'\(text)' \(reason)")
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw invalid("is not an http or https URL")
        }
        guard let host = url.host, !host.isEmpty else { throw invalid("has no host") }
        guard url.user == nil, url.password == nil else {
            throw invalid("holds credentials; send them in a header instead, where they are redacted")
        }
        guard url.query == nil else { throw invalid("has a query; give the base URL without one") }
        guard url.fragment == nil else { throw invalid("has a fragment; give the base URL without one") }
        var trimmed = text
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let base = URL(string: trimmed) else { throw invalid("is not a URL") }
        self.url = base
    }

    /// The base URL as text, such as `https://api.github.com`.
    public var description: String { url.absoluteString }

    /// The value of the `Host` header requests to the upstream carry: the host, and the port when the URL
    /// names one (`api.github.com`, `127.0.0.1:8080`, `[::1]:8080`).
    public var hostHeader: String {
        let host = url.host ?? ""
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return url.port.map { "\(bracketed):\($0)" } ?? bracketed
    }

    /// The URL a request for `target` (path and query, as sent to the proxy) is forwarded to, or `nil` when
    /// the combination is not a valid URL.
    func url(for target: String) -> URL? {
        URL(string: url.absoluteString + target)
    }
}
