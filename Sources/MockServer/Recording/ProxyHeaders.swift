/// Which header lines cross the proxy, in each direction. Hop-by-hop fields (RFC 9110 §7.6.1) describe one
/// connection, so they are neither forwarded nor recorded; fields that describe the bytes on the wire rather
/// than the content (`Content-Encoding`, a stale `Content-Length`) are dropped once the body is decoded,
/// because cassettes store bodies decoded.
enum ProxyHeaders {
    private static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
    ]

    /// Whether `name` is hop-by-hop: a standard one, any `Proxy-*` field (meant for the proxy itself,
    /// `Proxy-Authorization` included), or one the message's `Connection` header lists.
    static func isHopByHop(_ name: String, in headers: HTTPHeaders) -> Bool {
        let lowered = name.lowercased()
        if hopByHop.contains(lowered) || lowered.hasPrefix("proxy-") { return true }
        return headers.values(for: "Connection").contains { value in
            value.split(separator: ",").contains { $0.trimmingHTTPWhitespace().lowercased() == lowered }
        }
    }

    /// The client's request headers as a cassette records them: hop-by-hop fields and `Expect` dropped,
    /// `Host` naming the upstream (so a re-recording does not differ by the proxy's ephemeral port), or, for a
    /// routed request (`routed`), the host the app meant, so that an app's hosts are recorded each under its own.
    static func recorded(_ headers: HTTPHeaders, upstream: Upstream, routed: Bool = false) -> HTTPHeaders {
        var kept = HTTPHeaders(
            headers.lines.filter { line in
                !isHopByHop(line.name, in: headers) && !line.name.caseInsensitiveEquals("expect")
            })
        if !routed || kept["Host"] == nil {
            kept.set(name: "Host", value: upstream.hostHeader)
        }
        return kept
    }

    /// The headers sent upstream: the recorded ones without `Host` and `Content-Length` (URLSession writes
    /// both, from the URL and the body) and without `Accept-Encoding` (URLSession asks for the encodings it
    /// can decode, and decodes them, so the body is always readable).
    static func forwarded(_ recorded: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(
            recorded.lines.filter { line in
                !["host", "content-length", "accept-encoding"].contains(line.name.lowercased())
            })
    }

    /// URLSession's dictionary of response header fields as lines: sorted by name (URLSession does not keep
    /// arrival order; sorting keeps re-recordings diffable), and a `Set-Cookie` value that URLSession joined
    /// with commas split back into one line per cookie.
    static func urlSessionFields(_ dictionary: [AnyHashable: Any]) -> [(name: String, value: String)] {
        var lines: [(name: String, value: String)] = []
        for (key, value) in dictionary {
            let name = "\(key)", value = "\(value)"
            if name.caseInsensitiveEquals("set-cookie") {
                lines += splitSetCookie(value).map { (name, $0) }
            } else {
                lines.append((name, value))
            }
        }
        return lines.enumerated()
            .sorted { ($0.element.name.lowercased(), $0.offset) < ($1.element.name.lowercased(), $1.offset) }
            .map(\.element)
    }

    /// The upstream's response header fields for the client and the cassette, in the order given, without
    /// hop-by-hop fields. When the body was `decoded`, `Content-Encoding` is dropped. `Content-Length` keeps
    /// its place, its value the size of the body as passed on (`bodyCount` bytes, decoded or not); it is
    /// dropped when the body streams (`bodyCount` is `nil`) or, empty, was encoded. An empty body that was
    /// never encoded keeps the upstream's value: it tells a `HEAD` client the size of the resource.
    static func response(_ fields: [(name: String, value: String)], bodyCount: Int?, decoded: Bool = true) -> HTTPHeaders {
        let all = HTTPHeaders(fields.map { HTTPHeader(name: $0.name, value: $0.value) })
        let wasEncoded = all.contains("Content-Encoding")
        var lengthSeen = false
        return HTTPHeaders(
            all.lines.compactMap { line in
                if isHopByHop(line.name, in: all) || (decoded && line.name.caseInsensitiveEquals("content-encoding")) { return nil }
                guard line.name.caseInsensitiveEquals("content-length") else { return line }
                defer { lengthSeen = true }
                guard let bodyCount, !lengthSeen else { return nil }
                if bodyCount == 0 { return wasEncoded ? nil : line }
                return HTTPHeader(name: line.name, value: String(bodyCount))
            })
    }

    /// Splits `a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT, b=2` into its cookies: a comma starts a new
    /// cookie only when a `name=` follows it, which the comma inside an `Expires` date never has.
    static func splitSetCookie(_ value: String) -> [String] {
        var cookies: [String] = []
        var current = ""
        var index = value.startIndex
        while index < value.endIndex {
            let character = value[index]
            let next = value.index(after: index)
            if character == ",", startsCookie(value[next...]) {
                cookies.append(current.trimmingHTTPWhitespace())
                current = ""
            } else {
                current.append(character)
            }
            index = next
        }
        cookies.append(current.trimmingHTTPWhitespace())
        return cookies.filter { !$0.isEmpty }
    }

    /// Whether `text` (after a comma) begins with optional spaces, a cookie name and `=`.
    private static func startsCookie(_ text: Substring) -> Bool {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        let name = trimmed.prefix { !"=;, \t".contains($0) }
        return !name.isEmpty && trimmed.dropFirst(name.count).first == "="
    }
}
