/// An HTTP request method. An open set: the common methods are static members, any other token is
/// written as a string literal (`"PROPFIND"`).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method token as sent, upper case for the built-ins.
    public let rawValue: String

    /// The method `rawValue`, sent exactly as given.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The method named by the literal.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// `GET`: read; parameters default to the query string.
    public static let get: HTTPMethod = "GET"
    /// `POST`: create or act; parameters default to a JSON body; never retried.
    public static let post: HTTPMethod = "POST"
    /// `PUT`: replace; parameters default to a JSON body.
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`: update in part; parameters default to a JSON body; never retried.
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`: remove; parameters default to the query string.
    public static let delete: HTTPMethod = "DELETE"
    /// `HEAD`: headers only; parameters default to the query string.
    public static let head: HTTPMethod = "HEAD"
    /// `OPTIONS`: capabilities; parameters default to the query string.
    public static let options: HTTPMethod = "OPTIONS"

    /// Whether repeating the request has the same effect as sending it once (RFC 9110 §9.2.2): GET,
    /// HEAD, PUT, DELETE, OPTIONS and TRACE. Only these are ever retried.
    public var isIdempotent: Bool {
        ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(rawValue.uppercased())
    }

    /// Where parameters go unless the service says otherwise: the query string for methods without a
    /// body by convention (GET, HEAD, DELETE, OPTIONS), a JSON body for the rest.
    public var defaultParameterEncoding: ParameterEncoding {
        ["GET", "HEAD", "DELETE", "OPTIONS"].contains(rawValue.uppercased()) ? .query : .json
    }

    /// Whether requests of this method never carry a body in ServiceKit: GET and HEAD.
    var carriesNoBody: Bool {
        ["GET", "HEAD"].contains(rawValue.uppercased())
    }

    /// The method token.
    public var description: String { rawValue }
}
