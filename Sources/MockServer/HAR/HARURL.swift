/// An absolute `http` or `https` URL of a HAR entry, split the way a cassette needs it: the origin
/// (its upstream) and the target (path and query as sent). Parsed by hand rather than with `URLComponents`,
/// which rejects many URLs that browsers send as they are (unencoded `|`, `{`, `<redacted>`...).
struct HARURL: Sendable, Hashable {
    /// `http` or `https`, lower case.
    let scheme: String
    /// The host, lower case; IPv6 literals keep their brackets.
    let host: String
    /// The port when given and not the scheme's default.
    let port: Int?
    /// Path and query exactly as written, starting with `/`; the fragment is dropped.
    let target: String

    /// Parses `text`; `nil` unless it is an absolute http(s) URL with a host. User information
    /// (`user:password@`) is dropped: it never belongs in a cassette.
    init?(_ text: String) {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let rest = text[separator.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            authority = authority[authority.index(after: at)...]
        }
        var hostPart = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            hostPart = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty else { return nil }
        var port: Int?
        if let portText, !portText.isEmpty {
            guard portText.allSatisfy(\.isASCII), let number = Int(portText), (1...65_535).contains(number) else { return nil }
            port = number
        }
        if port == (scheme == "https" ? 443 : 80) { port = nil }
        var target = rest[authorityEnd...]
        if let hash = target.firstIndex(of: "#") { target = target[..<hash] }
        self.scheme = scheme
        self.host = hostPart.lowercased()
        self.port = port
        self.target = target.hasPrefix("/") ? String(target) : "/" + target
    }

    /// `scheme://host[:port]`, the upstream of a cassette imported from this URL.
    var origin: String {
        "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")"
    }

    /// Whether `wanted` names this URL's host: the host (`api.example.com`), host and port
    /// (`api.example.com:443`), or the origin (`https://api.example.com`), ignoring case.
    func isOnHost(_ wanted: String) -> Bool {
        let wanted = wanted.lowercased()
        if wanted.contains("://") {
            return origin == (wanted.hasSuffix("/") ? String(wanted.dropLast()) : wanted)
        }
        let effectivePort = port ?? (scheme == "https" ? 443 : 80)
        return wanted == host || wanted == "\(host):\(effectivePort)"
    }
}
