import Foundation

/// A request broken into what matching compares, parsed once: upper-case method, normalized path,
/// decoded query fields in arrival order, headers, the ``RequestConditions`` among them, and the body's content
/// (for a GraphQL `GET`, the JSON body its `POST` would carry: see ``GraphQLRequest``). The one form a received request
/// is compared in: the server parses it once and matching, fault filters and near-miss reports use the
/// result; journal patterns parse the requests they look at the same way (without their bodies).
struct RequestParts: Sendable {
    let method: String
    let path: String
    private(set) var query: [FormField]
    let headers: HTTPHeaders
    let conditions: RequestConditions
    let body: BodyContent

    init(received request: HTTPRequest) {
        self.init(
            method: request.method, target: request.target, headers: request.headers,
            body: request.body.isEmpty ? .empty : BodyContent(request.body, contentType: request.headers["Content-Type"]))
    }

    /// A recorded request; a presigned URL whose signature was redacted has its signing times as placeholders
    /// too (see ``PresignedQuery``).
    init(recorded request: RecordedRequest) {
        self.init(
            method: request.method, target: request.target, headers: request.headers,
            body: request.body.isEmpty ? .empty : BodyContent(request.body, contentType: request.headers["Content-Type"]))
        query = PresignedQuery.wildcardingSigningTimes(query)
    }

    init(method: String, target: String, headers: HTTPHeaders, body: BodyContent) {
        let (path, query) = RequestParts.split(target)
        self.method = RequestParts.normalizeMethod(method)
        self.path = PercentDecoding.normalizePath(path)
        let fields = query.map { FormField.parse($0) } ?? []
        self.headers = headers
        conditions = RequestConditions(headers)
        // A GraphQL GET compares as the body its POST would carry (see GraphQLRequest).
        if self.method == "GET", case .empty = body, !fields.isEmpty, let graphQL = GraphQLRequest.fromQuery(fields) {
            self.query = graphQL.rest
            self.body = .json(graphQL.body)
        } else {
            self.query = fields
            self.body = body
        }
    }

    /// Whether there is no query, no body and no ``RequestConditions``: past its bucket, such a request needs no
    /// normalizing or hashing.
    var isPlain: Bool {
        guard query.isEmpty, conditions.isEmpty, case .empty = body else { return false }
        return true
    }

    /// The same request asked with `GET`: what a `HEAD` asks about.
    var asGET: RequestParts {
        RequestParts(method: "GET", path: path, query: query, headers: headers, conditions: conditions, body: body)
    }

    private init(method: String, path: String, query: [FormField], headers: HTTPHeaders, conditions: RequestConditions, body: BodyContent) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.conditions = conditions
        self.body = body
    }

    /// Methods compare upper-cased, so a hand-written `get` still matches.
    static func normalizeMethod(_ method: String) -> String {
        // The usual methods arrive upper-case; comparing with them costs less than scanning.
        switch method {
        case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS": return method
        default: break
        }
        return method.utf8.contains(where: { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) ? method.uppercased() : method
    }

    /// The path matching compares for `target`, the one path every filter compares (fault rules' and journal
    /// patterns' globs too): without query and fragment, an absolute-form target's scheme and authority dropped,
    /// escapes decoded as ``PercentDecoding/normalizePath(_:)`` decodes them.
    static func normalizedPath(of target: String) -> String {
        PercentDecoding.normalizePath(split(target).path)
    }

    /// `/path?query#fragment` into its path and query (without `?`; the fragment is dropped). An
    /// absolute-form target (`http://host/path?query`, as sent to proxies) loses its scheme and authority.
    static func split(_ target: String) -> (path: Substring, query: Substring?) {
        guard target.utf8.first == UInt8(ascii: "/") else { return splitAbsolute(target) }
        // One pass over the bytes for `?` and `#`: this runs for every request.
        var text = target
        let (mark, end) = text.withUTF8 { bytes -> (Int?, Int) in
            var mark: Int?
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "#") { break }
                if byte == UInt8(ascii: "?"), mark == nil { mark = index }
                index += 1
            }
            return (mark, index)
        }
        let utf8 = target.utf8
        let endIndex = end == utf8.count ? utf8.endIndex : utf8.index(utf8.startIndex, offsetBy: end)
        guard let mark else { return (target[..<endIndex], nil) }
        let markIndex = utf8.index(utf8.startIndex, offsetBy: mark)
        return (mark == 0 ? "/" : target[..<markIndex], target[utf8.index(after: markIndex)..<endIndex])
    }

    /// ``split(_:)`` for targets not starting with `/`: absolute-form, `*`, or malformed.
    private static func splitAbsolute(_ target: String) -> (path: Substring, query: Substring?) {
        // UTF-8 indices: Character-level searching costs more than the rest of a lookup.
        let utf8 = target.utf8
        var start = utf8.startIndex
        if utf8.first != UInt8(ascii: "/"), let scheme = target.range(of: "://") {
            start = target[scheme.upperBound...].utf8.firstIndex(of: UInt8(ascii: "/")) ?? utf8.endIndex
        }
        let end = utf8[start...].firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
        guard let mark = utf8[start..<end].firstIndex(of: UInt8(ascii: "?")) else {
            return start == end ? ("/", nil) : (target[start..<end], nil)
        }
        return (start == mark ? "/" : target[start..<mark], target[utf8.index(after: mark)..<end])
    }

    /// The bucket the request falls in: method and normalized path.
    var bucketKey: BucketKey { BucketKey(method: method, path: path) }
}

/// Method plus normalized path: the first, exact level of lookup.
struct BucketKey: Sendable, Hashable {
    let method: String
    let path: String

    /// The path alone: hashing costs per byte, and a path rarely has buckets under several methods.
    func hash(into hasher: inout Hasher) {
        hasher.combine(path)
    }

    init(method: String, path: String) {
        self.method = method
        self.path = path
    }
}
