/// Where and how a service's parameters travel. A closed set.
public enum ParameterEncoding: Hashable, Sendable {
    /// In the URL's query string, RFC 3986 percent-encoded (`a=1&b=x%20y`); no body.
    case query
    /// A JSON object body, `Content-Type: application/json`.
    case json
    /// A form body, `Content-Type: application/x-www-form-urlencoded` (`username=ann&password=p%26ss`,
    /// spaces as `+`).
    case form
    /// A `multipart/form-data` body: one text part per parameter, then the service's
    /// ``WebService/files``.
    case multipart
}

extension ParameterEncoding {
    /// The case as a service spells it (`.json`), for sentences that name it.
    var spelling: String {
        switch self {
        case .query: ".query"
        case .json: ".json"
        case .form: ".form"
        case .multipart: ".multipart"
        }
    }
}
