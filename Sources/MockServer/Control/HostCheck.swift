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
        // Read in place, as bytes: this runs for nearly every request, and a loopback name needs no string.
        var authority = host
        let loopback = authority.withUTF8 { bytes in Self.nameLength(inAuthority: bytes).map { Self.isLoopbackName(bytes.prefix($0)) } }
        guard let loopback else { return false }
        guard !loopback else { return true }
        guard !allowed.isEmpty, let name = Self.name(inAuthority: host) else { return false }
        return allowed.contains(name.lowercased())
    }

    /// The host part of an authority, `name[:port]` or `[v6][:port]`, the brackets kept; `nil` when the
    /// authority is not of that shape (a port that is not all digits, text after the brackets).
    static func name(inAuthority authority: String) -> Substring? {
        var copy = authority
        guard let length = copy.withUTF8({ nameLength(inAuthority: $0) }) else { return nil }
        return authority[..<authority.utf8.index(authority.utf8.startIndex, offsetBy: length)]
    }

    /// How many leading bytes of `authority` are its host part (see ``name(inAuthority:)``); `nil` when the
    /// authority is not of that shape or the host part is empty.
    private static func nameLength(inAuthority authority: UnsafeBufferPointer<UInt8>) -> Int? {
        let end: Int
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            end = close + 1
        } else {
            end = authority.firstIndex(of: UInt8(ascii: ":")) ?? authority.count
        }
        if end < authority.count {
            guard authority[end] == UInt8(ascii: ":"), authority[(end + 1)...].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                return nil
            }
        }
        return end == 0 ? nil : end
    }

    /// Whether `name` (the bytes of a host part, as ``name(inAuthority:)`` gives it) is a loopback name.
    private static func isLoopbackName(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        if name.count == 5, name.elementsEqual(bytes("[::1]")) { return true }
        if name.starts(with: bytes("127.")) { return isIPv4(name) }
        return equalsIgnoringCase(name, "localhost") || hasSuffixIgnoringCase(name, ".localhost")
    }

    /// Whether `name` is a dotted IPv4 address: four decimal numbers of 0 to 255, each of one to three digits.
    /// One pass without allocating: it runs for nearly every request.
    private static func isIPv4(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var parts = 0
        var digits = 0
        var value = 0
        for byte in name {
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

    private static func bytes(_ literal: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
    }

    private static func equalsIgnoringCase(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ lowercase: StaticString) -> Bool {
        let expected = Self.bytes(lowercase)
        return bytes.count == expected.count && zip(bytes, expected).allSatisfy { $0 == $1 || (isLetter($0) && $0 | 0x20 == $1) }
    }

    private static func hasSuffixIgnoringCase(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ lowercase: StaticString) -> Bool {
        let count = lowercase.utf8CodeUnitCount
        guard bytes.count > count else { return false }
        return equalsIgnoringCase(bytes.suffix(count), lowercase)
    }
}
