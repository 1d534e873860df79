import Foundation

/// An HTTP request as the server received it (or as a cassette recorded it).
public struct HTTPRequest: Sendable, Hashable {
    /// The method token, upper-case as sent (`GET`, `POST`, ...).
    public var method: String
    /// The request target: path plus query, exactly as sent (`/users?since=0`).
    public var target: String
    /// The protocol version from the request line, such as `HTTP/1.1`.
    public var version: String
    /// The header lines in arrival order.
    public var headers: HTTPHeaders
    /// The body, de-chunked when it arrived chunked; empty when there was none.
    public var body: Data

    /// Creates a request. `version` defaults to HTTP/1.1; `headers` and `body` default to empty.
    public init(method: String, target: String, version: String = "HTTP/1.1", headers: HTTPHeaders = [:], body: Data = Data()) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The path part of ``target``, without the query (percent-encoding kept as sent).
    public var path: String {
        guard let mark = target.firstIndex(of: "?") else { return target }
        return String(target[..<mark])
    }

    /// The query part of ``target`` after `?`, or `nil` when there is none.
    public var query: String? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        return String(target[target.index(after: mark)...])
    }
}
