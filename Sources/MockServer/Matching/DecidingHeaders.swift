/// The request headers that can pick between recorded interactions that otherwise match the same requests:
/// every header except the volatile ones, which differ from run to run whatever the answer (dates, request IDs,
/// user agents, signatures, framing) and so never say which recording a request asked for. A header whose value
/// holds the redaction placeholder never counts either.
///
/// Recordings that match the same request (a ``CassetteIndex`` group) are compared once, when they are indexed:
/// a header counts for the group only when its values differ between them (an `Accept`, an `x-ms-version`, a
/// `Prefer`). Most groups hold one recording, or recordings whose headers differ only in volatile ones; they
/// compare nothing per request.
enum DecidingHeaders {
    /// Lower-cased names that never pick an answer. The one list; the DocC article on matching repeats it.
    static let volatileNames: Set<String> = [
        // Framing and connection: the body is compared on its own.
        "host", "content-length", "content-type", "connection", "keep-alive", "transfer-encoding", "te", "expect",
        "upgrade", "accept-encoding",
        // A WebSocket upgrade's nonce and the extensions a client offers (none is ever accepted on replay).
        "sec-websocket-key", "sec-websocket-extensions",
        // Dates and times.
        "date", "x-ms-date", "x-amz-date", "x-goog-date", "if-modified-since", "if-unmodified-since",
        // Clients and their versions.
        "user-agent", "x-amz-user-agent", "x-ms-useragent", "x-client-version",
        // Request, trace and retry identifiers.
        "x-request-id", "request-id", "x-ms-client-request-id", "x-ms-return-client-request-id", "x-correlation-id",
        "x-amzn-trace-id", "amz-sdk-invocation-id", "amz-sdk-request", "traceparent", "tracestate", "baggage",
        "sentry-trace", "idempotency-key", "x-idempotency-key",
        // Credentials and signatures.
        "authorization", "proxy-authorization", "cookie", "x-api-key", "api-key", "x-goog-api-key",
        "x-amz-security-token", "x-amz-content-sha256", "content-md5", "x-ms-content-crc64",
    ]

    /// Lower-cased name prefixes that never pick an answer: SDK telemetry, B3 tracing, and this server's own.
    static let volatilePrefixes: [String] = ["x-stainless-", "x-b3-", "x-mockserver-"]

    /// Whether the lower-cased `name` never picks an answer.
    static func isVolatile(_ name: String) -> Bool {
        volatileNames.contains(name) || volatilePrefixes.contains { name.hasPrefix($0) }
    }

    /// The headers of `headers` that can pick an answer: lower-cased name to its values joined by `, `, trimmed.
    static func values(of headers: HTTPHeaders) -> [String: String] {
        var values: [String: String] = [:]
        for line in headers.lines {
            let name = line.name.lowercased()
            guard !isVolatile(name), !Cassette.holdsRedactionPlaceholder(line.value) else { continue }
            let value = line.value.trimmingHTTPWhitespace()
            if let earlier = values[name] { values[name] = earlier + ", " + value } else { values[name] = value }
        }
        return values
    }
}

/// How the members of one group of recordings differ in their ``DecidingHeaders``, kept from its second member
/// on. A request is answered by the members whose values agree with its own on the most of those headers; only
/// among them does recorded order decide.
struct HeaderSplit: Sendable {
    /// Each member's deciding headers, in member order.
    private var memberValues: [[String: String]]
    /// Lower-cased names whose values differ between members (a missing header differs from any value), sorted.
    private(set) var names: [String] = []

    /// The split of two members, the group's first two.
    init(_ first: [String: String], _ second: [String: String]) {
        memberValues = [first]
        append(second)
    }

    /// Adds the next member's deciding headers.
    mutating func append(_ values: [String: String]) {
        memberValues.append(values)
        let reference = memberValues[0]
        var differing = Set(names)
        for (name, value) in values where reference[name] != value { differing.insert(name) }
        for name in reference.keys where values[name] == nil { differing.insert(name) }
        if differing.count != names.count { names = differing.sorted() }
    }

    /// The positions (in member order) of the members that agree with `headers` on the most deciding headers;
    /// `nil` when no header differs between members, so that every member is as good as any other.
    func preferredPositions(for headers: HTTPHeaders) -> [Int]? {
        guard !names.isEmpty else { return nil }
        let received = names.map { name -> String? in
            let values = headers.values(for: name)
            guard !values.isEmpty, !values.contains(where: Cassette.holdsRedactionPlaceholder) else { return nil }
            return values.map { $0.trimmingHTTPWhitespace() }.joined(separator: ", ")
        }
        var best = -1
        var positions: [Int] = []
        for (position, values) in memberValues.enumerated() {
            var score = 0
            for (name, value) in zip(names, received) where values[name] == value { score += 1 }
            if score > best {
                best = score
                positions = [position]
            } else if score == best {
                positions.append(position)
            }
        }
        return positions
    }

    /// The deciding values of the member at `position`, for the names that differ: members with equal signatures
    /// answer exactly the same requests.
    func signature(ofMemberAt position: Int) -> [String?] {
        names.map { memberValues[position][$0] }
    }
}
