import Foundation

/// What a value looks like on its own, whatever its name: a JSON Web Token, a token of a well-known service
/// (a GitHub, AWS, Slack, Stripe, Google or GitLab key, by its prefix), or a long random string.
///
/// The first two are *precise*: they hold wherever the value is, even under an identifier's name or in free
/// text. A high-entropy string is a guess, made only for a value that stands alone (a header, a query, form
/// or JSON value), never for a word in prose, and never under an identifier's or cursor's name (see
/// ``IdentifierNames``).
package enum CredentialFormat: Sendable, Hashable, CustomStringConvertible {
    /// Three base64url segments, the first two starting with `eyJ` (`{"` encoded).
    case jsonWebToken
    /// A token of a well-known service, named: `GitHub token`, `AWS access key`.
    case known(String)
    /// At least 32 token characters mixing upper case, lower case and digits, with a Shannon entropy of at
    /// least 4.2 bits per character: random keys pass, hex digests (≤ 4 bits, no upper case) and words do not.
    case highEntropy

    /// The format of `value`, or `nil` when it looks like none.
    static func of(_ value: String) -> CredentialFormat? {
        // Most values are short: none of the formats is (see `shortestPrecise`; a random string is 32).
        guard value.utf8.count >= shortestPrecise else { return nil }
        let bytes = Array(value.utf8)
        if isJWT(bytes) { return .jsonWebToken }
        for (prefix, name, minimum) in knownPrefixes where value.hasPrefix(prefix) && bytes.count >= minimum {
            if bytes.dropFirst(prefix.utf8.count).allSatisfy(isTokenByte) { return .known(name) }
        }
        if isHighEntropy(bytes) { return .highEntropy }
        return nil
    }

    /// Whether the format is certain wherever the value is (not ``highEntropy``).
    var isPrecise: Bool { self != .highEntropy }

    /// `a JSON Web Token`, `a GitHub token`, `an AWS access key`, `a high-entropy string`.
    package var description: String {
        switch self {
        case .jsonWebToken: "a JSON Web Token"
        case .known(let name): (name.hasPrefix("A") ? "an " : "a ") + name
        case .highEntropy: "a high-entropy string"
        }
    }

    /// The runs of token characters in `text` that have a precise format, with their UTF-8 byte ranges, in
    /// order: free text is full of long words, so only precise formats count there.
    static func preciseWords(in text: String) -> [(text: String, range: Range<Int>)] {
        let bytes = Array(text.utf8)
        var found: [(text: String, range: Range<Int>)] = []
        var index = 0
        while index < bytes.count {
            guard isTokenByte(bytes[index]) else {
                index += 1
                continue
            }
            let start = index
            while index < bytes.count, isTokenByte(bytes[index]) { index += 1 }
            // No precise format is shorter (an AWS key is 20 characters, a JSON Web Token at least 30).
            guard index - start >= shortestPrecise else { continue }
            let word = String(decoding: bytes[start..<index], as: UTF8.self)
            if let format = of(word), format.isPrecise { found.append((word, start..<index)) }
        }
        return found
    }

    private static let shortestPrecise = knownPrefixes.map(\.2).min() ?? 20

    private static let knownPrefixes: [(String, String, Int)] = [
        ("ghp_", "GitHub token", 40), ("gho_", "GitHub token", 40), ("ghu_", "GitHub token", 40),
        ("ghs_", "GitHub token", 40), ("ghr_", "GitHub token", 40), ("github_pat_", "GitHub token", 40),
        ("AKIA", "AWS access key", 20), ("ASIA", "AWS access key", 20), ("xoxb-", "Slack token", 20),
        ("xoxp-", "Slack token", 20), ("xoxa-", "Slack token", 20), ("sk_live_", "Stripe key", 24),
        ("AIza", "Google API key", 39), ("glpat-", "GitLab token", 24),
    ]

    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
            true
        default:
            false
        }
    }

    private static func isJWT(_ bytes: [UInt8]) -> Bool {
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count == 3, bytes.count >= 30 else { return false }
        let eyJ = Array("eyJ".utf8)
        return segments[0].starts(with: eyJ) && segments[1].starts(with: eyJ)
            && segments.allSatisfy { $0.allSatisfy { isTokenByte($0) && $0 != UInt8(ascii: ".") } }
    }

    private static func isHighEntropy(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 32, bytes.count <= 4096, bytes.allSatisfy(isTokenByte) else { return false }
        var upper = false, lower = false, digit = false
        var counts = [Int](repeating: 0, count: 256)
        for byte in bytes {
            counts[Int(byte)] += 1
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): upper = true
            case UInt8(ascii: "a")...UInt8(ascii: "z"): lower = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = true
            default: break
            }
        }
        guard upper, lower, digit else { return false }
        let total = Double(bytes.count)
        let entropy = counts.reduce(0.0) { sum, count in
            guard count > 0 else { return sum }
            let p = Double(count) / total
            return sum - p * log2(p)
        }
        return entropy >= 4.2
    }
}
