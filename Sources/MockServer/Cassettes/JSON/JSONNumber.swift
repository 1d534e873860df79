@_spi(JSONScanning) import ServiceReplayShared

/// A JSON number kept as its literal text.
///
/// Keeping the text means a recorded `1.50` or an identifier beyond 2^53 replays exactly as recorded.
/// Equality and hashing are by value: `1`, `1.0`, `10e-1` and `-0` vs `0` compare as a person would expect.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's JSON text, such as `42`, `-0.5` or `1e+20`.
    public let literal: String

    /// Creates a number from JSON number text; `nil` unless `literal` follows the JSON number grammar.
    public init?(literal: String) {
        var text = literal
        let valid = text.withUTF8 { bytes in
            var scanner = JSONScanner(bytes: bytes, loneSurrogates: .refuse)
            return (try? scanner.scanNumber()) != nil && scanner.isAtEnd
        }
        guard valid else { return nil }
        self.literal = literal
    }

    /// Creates a number from an integer.
    public init(_ value: Int) {
        literal = String(value)
    }

    /// Creates a number from a finite double, spelled the shortest way that reads back the same; `nil` for
    /// infinities and NaN, which JSON cannot express.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        self.init(finite: value)
    }

    init(finite value: Double) {
        precondition(value.isFinite, "JSON numbers must be finite")
        literal = "\(value)"
    }

    init(trustedLiteral: String) {
        literal = trustedLiteral
    }

    /// The literal text.
    public var description: String { literal }

    /// The value as a double (possibly rounded).
    public var doubleValue: Double { Double(literal) ?? .nan }

    /// The value as an integer when it is a whole number that fits in `Int`, else `nil`.
    public var intValue: Int? { exactly(Int.self) }

    /// The value as an `Integer` when it is a whole number in that type's range (`1.0`, `1e2` and `-0`
    /// included), else `nil`. Read from the literal, never through a double, so `18446744073709551615` is a
    /// `UInt64` exactly.
    func exactly<Integer: FixedWidthInteger>(_: Integer.Type) -> Integer? {
        if let exact = Integer(literal) { return exact }
        let canonical = canonicalForm
        if canonical.digits.isEmpty { return 0 }
        // A whole number of `bitWidth` bits has fewer than `bitWidth` decimal digits; the bound keeps `1e999999`
        // from spelling out a million zeros.
        guard canonical.exponent >= canonical.digits.count, canonical.exponent <= Integer.bitWidth else { return nil }
        var text = canonical.negative ? "-" : ""
        text += String(decoding: canonical.digits, as: UTF8.self)
        text += String(repeating: "0", count: canonical.exponent - canonical.digits.count)
        return Integer(text)
    }

    /// Equality by numeric value.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        lhs.literal == rhs.literal || lhs.canonicalForm == rhs.canonicalForm
    }

    /// Hashes the numeric value, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(canonicalForm)
    }

    /// The value as `0.DIGITS × 10^exponent` with no leading or trailing zero digits; zero has no digits.
    struct Canonical: Hashable {
        var negative: Bool
        var digits: [UInt8]
        var exponent: Int
    }

    var canonicalForm: Canonical {
        var negative = false
        var digits: [UInt8] = []
        var pointPosition = 0
        var exponent = 0
        var exponentNegative = false
        var seenPoint = false
        var inExponent = false
        for byte in literal.utf8 {
            switch byte {
            case UInt8(ascii: "-") where !inExponent: negative = true
            case UInt8(ascii: "-"): exponentNegative = true
            case UInt8(ascii: "+"): break
            case UInt8(ascii: "."): seenPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            case UInt8(ascii: "0")...UInt8(ascii: "9") where inExponent:
                // Saturate: exponents beyond a billion are not worth distinguishing.
                if exponent < 1_000_000_000 { exponent = exponent * 10 + Int(byte - UInt8(ascii: "0")) }
            default:
                if digits.isEmpty && byte == UInt8(ascii: "0") {
                    if seenPoint { pointPosition -= 1 }
                    continue
                }
                digits.append(byte)
                if !seenPoint { pointPosition += 1 }
            }
        }
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        if digits.isEmpty { return Canonical(negative: false, digits: [], exponent: 0) }
        return Canonical(negative: negative, digits: digits, exponent: pointPosition + (exponentNegative ? -exponent : exponent))
    }
}
