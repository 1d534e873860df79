import Foundation

/// Which requests a journal query or assertion is about: `.get("/users*")`,
/// `.post("/login").withBody(containing: "username=ann")`, `.any("/feeds").withQuery("page", "2")`.
public struct RequestPattern: Sendable, Hashable, CustomStringConvertible {
    /// One query condition: the parameter is present, with exactly `value` when one is given.
    struct QueryCondition: Sendable, Hashable {
        /// The parameter name, exact.
        var name: String
        /// The decoded value it must have, or `nil` for any value.
        var value: String?

        /// Creates a condition.
        init(name: String, value: String? = nil) {
            self.name = name
            self.value = value
        }
    }

    /// The method, compared case-insensitively; `nil` for any method.
    public var method: String?
    /// The path glob (see ``PathGlob``), matched against the path percent-decoded as request matching
    /// decodes it; `nil` for any path.
    var path: PathGlob?
    /// Query parameters that must be present (other parameters may be present too); see ``withQuery(_:_:)``.
    var query: [QueryCondition] = []
    /// Text the body must contain (compared as UTF-8 bytes); `nil` for any body.
    public var bodyContains: String?

    /// Creates a pattern; every part defaults to "anything". `path` is a glob where `*` matches any run of
    /// characters, such as `/users*`. Query conditions are added with ``withQuery(_:_:)``.
    public init(method: String? = nil, path: String? = nil, bodyContains: String? = nil) {
        self.method = method
        self.path = path.map(PathGlob.init)
        self.bodyContains = bodyContains
    }

    /// Any request at all.
    public static let anyRequest = RequestPattern()

    /// `GET` requests whose path matches `path`.
    public static func get(_ path: String) -> RequestPattern { RequestPattern(method: "GET", path: path) }
    /// `POST` requests whose path matches `path`.
    public static func post(_ path: String) -> RequestPattern { RequestPattern(method: "POST", path: path) }
    /// `PUT` requests whose path matches `path`.
    public static func put(_ path: String) -> RequestPattern { RequestPattern(method: "PUT", path: path) }
    /// `PATCH` requests whose path matches `path`.
    public static func patch(_ path: String) -> RequestPattern { RequestPattern(method: "PATCH", path: path) }
    /// `DELETE` requests whose path matches `path`.
    public static func delete(_ path: String) -> RequestPattern { RequestPattern(method: "DELETE", path: path) }
    /// Requests of any method whose path matches `path`.
    public static func any(_ path: String) -> RequestPattern { RequestPattern(path: path) }

    /// The pattern, also requiring query parameter `name` (with `value`, when given).
    public func withQuery(_ name: String, _ value: String? = nil) -> RequestPattern {
        var copy = self
        copy.query.append(QueryCondition(name: name, value: value))
        return copy
    }

    /// The pattern, also requiring the body to contain `text`.
    public func withBody(containing text: String) -> RequestPattern {
        var copy = self
        copy.bodyContains = text
        return copy
    }

    /// Whether `request` fits every part of the pattern.
    public func matches(_ request: HTTPRequest) -> Bool {
        // Parsed as the server parses what it matches and what fault rules filter; the body is searched as bytes.
        let parts = RequestParts(method: request.method, target: request.target, headers: request.headers, body: .empty)
        if let method, RequestParts.normalizeMethod(method) != parts.method { return false }
        if let path, !path.matches(parts.path) { return false }
        for condition in query where !parts.query.contains(where: { $0.name == condition.name && (condition.value == nil || $0.value == condition.value) }) {
            return false
        }
        if let bodyContains, !bodyContains.isEmpty, request.body.range(of: Data(bodyContains.utf8)) == nil { return false }
        return true
    }

    /// Reads like the call: `GET /users*`, `any method /feeds with query page=2`,
    /// `POST /login with body containing "ann"`.
    public var description: String {
        var text = (method.map { RequestParts.normalizeMethod($0) } ?? "any method") + " " + (path?.pattern ?? "any path")
        if !query.isEmpty {
            text +=
                " with query "
                + query.map { condition in condition.value.map { "\(condition.name)=\($0)" } ?? condition.name }
                .joined(separator: "&")
        }
        if let bodyContains { text += " with body containing " + JSONWriter.quoted(bodyContains) }
        return text
    }
}
