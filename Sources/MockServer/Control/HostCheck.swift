/// Which `Host` a server answers: loopback names always (`127.0.0.1` and the rest of 127.0.0.0/8, `localhost`
/// and `*.localhost`, `[::1]`, each with or without a port), a request without `Host` (HTTP/1.0), and the names
/// allowed on purpose. A web page that rebinds its own name to 127.0.0.1 sends that name as `Host`, so refusing
/// every other name keeps such a page from reading or steering the server (a page cannot set `Host` itself).
/// An address other than loopback, such as the Android emulator's 10.0.2.2, is allowed on purpose like a name.
///
/// Built once per server; ``admits(_:)`` runs on every request and allocates nothing for a loopback name.
struct HostCheck: Sendable {
    /// The allowed names, lower-cased, IPv6 addresses in brackets.
    private let allowed: Set<String>
    /// Whether `*` was allowed: every name is answered.
    private let allowsAny: Bool

    /// A check that admits loopback names and `names`: each a host name or IP address (IPv6 in brackets),
    /// without scheme, port or path, matched case-insensitively with any port; `*` admits every name.
    /// - Throws: ``MockServerError`` `invalidConfiguration` naming the first entry that is not such a name.
    init(allowing names: [String]) throws(MockServerError) {
        var allowed = Set<String>()
        var allowsAny = false
        for name in names {
            if name == "*" {
                allowsAny = true
                continue
            }
            guard Self.isName(name) else {
                throw MockServerError(
                    .invalidConfiguration,
                    "the allowed host '\(name)' is not a host name or IP address; give a name such as mockserver or 10.0.2.2 (IPv6 in brackets), without scheme, port or path, or * to allow any name"
                )
            }
            allowed.insert(name.lowercased())
        }
        self.allowed = allowed
        self.allowsAny = allowsAny
    }

    /// Whether a request whose `Host` field is `host` (`nil` when it has none) is answered; an empty `Host`
    /// (a target without authority) counts as none.
    func admits(_ host: String?) -> Bool {
        guard let host, !host.isEmpty, !allowsAny else { return true }
        guard let name = Self.name(inAuthority: host) else { return false }
        return Self.isLoopbackName(name) || (!allowed.isEmpty && allowed.contains(name.lowercased()))
    }

    /// The host part of an authority, `name[:port]` or `[v6][:port]`, the brackets kept; `nil` when the
    /// authority is not of that shape (a port that is not all digits, text after the brackets).
    static func name(inAuthority authority: String) -> Substring? {
        let utf8 = authority.utf8
        let end: String.Index
        if utf8.first == UInt8(ascii: "[") {
            guard let close = utf8.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            end = utf8.index(after: close)
        } else {
            end = utf8.firstIndex(of: UInt8(ascii: ":")) ?? utf8.endIndex
        }
        let rest = utf8[end...]
        if let colon = rest.first {
            guard colon == UInt8(ascii: ":"), rest.dropFirst().allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                return nil
            }
        }
        let name = authority[..<end]
        return name.isEmpty ? nil : name
    }

    /// Whether `name` (a host part, as ``name(inAuthority:)`` gives it) is a loopback name.
    static func isLoopbackName(_ name: Substring) -> Bool {
        let utf8 = name.utf8
        if utf8.elementsEqual("[::1]".utf8) { return true }
        if utf8.starts(with: "127.".utf8) { return isIPv4(name) }
        return equalsIgnoringCase(utf8, "localhost") || hasSuffixIgnoringCase(utf8, ".localhost")
    }

    /// Whether `name` is a dotted IPv4 address: four decimal numbers of 0 to 255, each of one to three digits.
    /// One pass without allocating: it runs for nearly every request.
    private static func isIPv4(_ name: Substring) -> Bool {
        var parts = 0
        var digits = 0
        var value = 0
        for byte in name.utf8 {
            if byte == UInt8(ascii: ".") {
                guard digits > 0 else { return false }
                parts += 1
                digits = 0
                value = 0
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits += 1
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                guard digits <= 3, value <= 255 else { return false }
            } else {
                return false
            }
        }
        return parts == 3 && digits > 0
    }

    /// Whether `name` can be allowed: a DNS name or IPv4 address (letters, digits, `-`, `_`, `.`), or an IPv6
    /// address in brackets (hex digits, `:` and `.`).
    private static func isName(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard !utf8.isEmpty, utf8.count <= 255 else { return false }
        if utf8.first == UInt8(ascii: "[") {
            guard utf8.count > 2, utf8.last == UInt8(ascii: "]") else { return false }
            return utf8.dropFirst().dropLast().allSatisfy { isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
        }
        return utf8.allSatisfy { isHexDigit($0) || isLetter($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func equalsIgnoringCase(_ utf8: Substring.UTF8View, _ lowercase: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        return utf8.count == expected.count && zip(utf8, expected).allSatisfy { $0 == $1 || (isLetter($0) && $0 | 0x20 == $1) }
    }

    private static func hasSuffixIgnoringCase(_ utf8: Substring.UTF8View, _ lowercase: StaticString) -> Bool {
        let count = lowercase.utf8CodeUnitCount
        guard utf8.count > count else { return false }
        return equalsIgnoringCase(utf8.suffix(count), lowercase)
    }
}
