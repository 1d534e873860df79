/// The lexical half of reading JSON text (RFC 8259, UTF-8), once for the package: ServiceKit's parser builds
/// its lazy tape on it and MockServer's its exact-layout tree, each keeping only its structure and policy
/// (depth, duplicate keys, what a value becomes). The scanner steps over whitespace, literals, strings and
/// numbers at ``index``, checking them, and says where the first problem is with a ``JSONParseError`` in one
/// wording for both.
///
/// The methods a parser calls for every token are `@inlinable`, so that a parser in another module pays no
/// call per token, and the smallest are always inlined; what runs only on failure is not. It is public SPI
/// (`@_spi(JSONScanning) import ServiceReplayShared`) rather than `package` because Swift 6.3 inlines no
/// `@inlinable package` body into another module: measured, ServiceKit's parser called even `isAt(_:)`, and
/// took 60 % longer than with its own lexer. Apps never see it: ServiceKit re-exports the module without SPI.
@_spi(JSONScanning) public struct JSONScanner {
    /// What a `\u` escape of a surrogate that is not half of a pair means.
    public enum LoneSurrogates: Sendable {
        /// It reads as U+FFFD, the replacement character (RFC 8259 leaves it to the parser; ServiceKit reads a
        /// server's body this way).
        case replace
        /// It is an error (cassettes, which must replay exactly what they say).
        case refuse
    }

    /// Where a string scanned by ``scanString()`` lies: its text runs from `start` to `end` (the opening
    /// quote is just before `start`, the closing one at `end`).
    public struct ScannedString: Sendable {
        /// The offset of the string's first byte after its opening quote.
        public let start: Int
        /// The offset of its closing quote.
        public let end: Int
        /// Whether the text holds a backslash escape, so that it must go through ``unescape(_:into:)``
        /// before use; without one it is the string's UTF-8 as it stands.
        public let hasEscapes: Bool

        /// A string's place, as ``scanString()`` found it.
        @inlinable public init(start: Int, end: Int, hasEscapes: Bool) {
            self.start = start
            self.end = end
            self.hasEscapes = hasEscapes
        }
    }

    /// Where a number scanned by ``scanNumber()`` lies, from `start` up to `end`.
    public struct ScannedNumber: Sendable {
        /// The offset of its first byte (a digit or `-`).
        public let start: Int
        /// The offset just after its last byte.
        public let end: Int
        /// Whether it has neither a fraction nor an exponent.
        public let isInteger: Bool

        /// A number's place, as ``scanNumber()`` found it.
        @inlinable public init(start: Int, end: Int, isInteger: Bool) {
            self.start = start
            self.end = end
            self.isInteger = isInteger
        }
    }

    /// The whole text being read; every offset is into it.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    public var index: Int
    /// What a lone surrogate escape means for ``scanString()``.
    public let loneSurrogates: LoneSurrogates

    /// A scanner at the start of `bytes`.
    @inlinable public init(bytes: UnsafeBufferPointer<UInt8>, loneSurrogates: LoneSurrogates) {
        self.bytes = bytes
        self.index = 0
        self.loneSurrogates = loneSurrogates
    }

    // MARK: Bytes

    /// Whether every byte has been read.
    @inline(__always) @inlinable public var isAtEnd: Bool { index >= bytes.count }

    /// The byte at ``index``; only when not ``isAtEnd``.
    @inline(__always) @inlinable public var current: UInt8 { bytes[index] }

    /// Whether the byte at ``index`` is `byte` (false at the end).
    @inline(__always) @inlinable public func isAt(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    /// Steps over a UTF-8 byte order mark at the very start, which RFC 8259 lets a parser ignore.
    @inlinable public mutating func skipByteOrderMark() {
        if index == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
        }
    }

    /// Steps over JSON whitespace: space, tab, line feed and carriage return.
    @inline(__always) @inlinable public mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                index += 1
            default:
                return
            }
        }
    }

    // MARK: Literals

    /// Steps over `literal` (`true`, `false` or `null`) at ``index``, or throws `invalid literal, expected
    /// true` at its first byte (ending early when the bytes stop partway through a correct prefix).
    @inlinable public mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw literalFailure(literal) }
        let expected = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != expected[offset] {
            throw literalFailure(literal)
        }
        index += count
    }

    @usableFromInline func literalFailure(_ literal: StaticString) -> JSONParseError {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        let available = min(expected.count, bytes.count - index)
        let isPrefix = (0..<available).allSatisfy { bytes[index + $0] == expected[$0] }
        return failure("invalid literal, expected \(literal)", endsEarly: isPrefix)
    }

    // MARK: Strings

    /// Checks the string whose opening quote is at ``index`` and steps past its closing quote, returning where
    /// its text lies. Throws for a control character (U+0000 to U+001F) not escaped, an escape RFC 8259 does
    /// not define, a `\u` not followed by four hexadecimal digits, a lone surrogate escape when
    /// ``loneSurrogates`` is ``LoneSurrogates/refuse``, a byte sequence that is not UTF-8, and a string never
    /// closed.
    @inlinable public mutating func scanString() throws(JSONParseError) -> ScannedString {
        let opening = index
        index += 1
        var hasEscapes = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return ScannedString(start: opening + 1, end: index - 1, hasEscapes: hasEscapes)
            }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                try scanEscape(stringOpenedAt: opening)
            } else if byte >= 0x80 {
                try scanUTF8Sequence(stringOpenedAt: opening)
            } else if byte < 0x20 {
                throw controlCharacterFailure(byte)
            } else {
                index += 1
            }
        }
        throw unterminatedString(openedAt: opening)
    }

    /// Checks the escape whose backslash is at ``index`` and steps over it.
    @inlinable mutating func scanEscape(stringOpenedAt opening: Int) throws(JSONParseError) {
        guard index + 1 < bytes.count else { throw unterminatedString(openedAt: opening) }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 2
        case UInt8(ascii: "u"):
            try scanUnicodeEscape()
        default:
            throw failure("invalid escape in a string, expected \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX")
        }
    }

    /// Checks the `\uXXXX` escape at ``index`` (and under ``LoneSurrogates/refuse`` that a surrogate is a
    /// high one followed by a low one) and steps over it.
    @inlinable mutating func scanUnicodeEscape() throws(JSONParseError) {
        let escape = index
        guard let unit = Self.hexQuad(bytes, at: escape + 2) else { throw hexQuadFailure(escapeAt: escape) }
        index += 6
        guard loneSurrogates == .refuse, unit & 0xF800 == 0xD800 else { return }
        if unit < 0xDC00, isAt(UInt8(ascii: "\\")), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") {
            guard let low = Self.hexQuad(bytes, at: index + 2) else { throw hexQuadFailure(escapeAt: index) }
            if low & 0xFC00 == 0xDC00 {
                index += 6
                return
            }
        }
        throw unpairedSurrogate(escapeAt: escape, isHigh: unit < 0xDC00)
    }

    /// The failure of the lone surrogate escape at `escape`, ``index`` just after it: one that ends early when
    /// it is a high surrogate and the bytes stop where its low half could still have begun.
    @usableFromInline func unpairedSurrogate(escapeAt escape: Int, isHigh: Bool) -> JSONParseError {
        let pairCutShort = isHigh && (isAtEnd || (index + 1 == bytes.count && bytes[index] == UInt8(ascii: "\\")))
        return failure(
            "unpaired surrogate in a \\u escape, expected a high surrogate \\uD800-\\uDBFF followed by a low "
                + "surrogate \\uDC00-\\uDFFF", at: escape, endsEarly: pairCutShort)
    }

    /// Checks the UTF-8 sequence whose lead byte (not ASCII) is at ``index`` and steps over it. The table of
    /// well-formed sequences is the Unicode standard's (table 3-7): no overlong forms, no surrogates, nothing
    /// past U+10FFFF.
    @inlinable mutating func scanUTF8Sequence(stringOpenedAt opening: Int) throws(JSONParseError) {
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        let length: Int
        switch bytes[index] {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: throw invalidUTF8()
        }
        for position in (index + 1)..<(index + length) {
            guard position < bytes.count else { throw unterminatedString(openedAt: opening) }
            guard bytes[position] >= lower, bytes[position] <= upper else { throw invalidUTF8() }
            lower = 0x80
            upper = 0xBF
        }
        index += length
    }

    @usableFromInline func unterminatedString(openedAt opening: Int) -> JSONParseError {
        failure("unterminated string, expected a closing quote", at: opening, endsEarly: true)
    }

    @usableFromInline func controlCharacterFailure(_ byte: UInt8) -> JSONParseError {
        let code = String(byte, radix: 16, uppercase: true)
        let hex = String(repeating: "0", count: 4 - code.count) + code
        return failure("unescaped control character U+\(hex) in a string, expected the escape \\u\(hex)")
    }

    @usableFromInline func invalidUTF8() -> JSONParseError {
        failure("invalid UTF-8 in a string, expected a well-formed UTF-8 sequence")
    }

    /// The failure of a `\u` escape at `escape` without four hexadecimal digits: one that ends early when the
    /// bytes stop before the fourth and those present are hexadecimal.
    @usableFromInline func hexQuadFailure(escapeAt escape: Int) -> JSONParseError {
        let digits = escape + 2
        let available = min(4, bytes.count - digits)
        let isPrefix = (0..<available).allSatisfy { Self.hexDigit(bytes[digits + $0]) != nil }
        return failure("invalid \\u escape, expected four hexadecimal digits", at: escape, endsEarly: available < 4 && isPrefix)
    }

    /// The value of the four hexadecimal digits at `start` in `text`, or `nil` when there are not four there.
    @inlinable public static func hexQuad(_ text: UnsafeBufferPointer<UInt8>, at start: Int) -> UInt32? {
        guard text.count - start >= 4 else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = hexDigit(text[start + offset]) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    @inlinable static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }

    // MARK: Unescaping

    /// Writes the text of a string that ``scanString()`` checked (the bytes between its quotes) into
    /// `output` with its escapes replaced, and returns how many bytes it wrote. `output` needs no more room than
    /// `text.count`: no escape is shorter than what it stands for. A `\u` escape of a lone surrogate (which
    /// only ``LoneSurrogates/replace`` lets through) becomes U+FFFD.
    public static func unescape(_ text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var read = 0
        var written = 0
        while read < text.count {
            let byte = text[read]
            guard byte == UInt8(ascii: "\\") else {
                output[written] = byte
                written += 1
                read += 1
                continue
            }
            let escaped: UInt8
            switch text[read + 1] {
            case UInt8(ascii: "b"): escaped = 0x08
            case UInt8(ascii: "f"): escaped = 0x0C
            case UInt8(ascii: "n"): escaped = UInt8(ascii: "\n")
            case UInt8(ascii: "r"): escaped = UInt8(ascii: "\r")
            case UInt8(ascii: "t"): escaped = UInt8(ascii: "\t")
            case UInt8(ascii: "u"):
                let (scalar, length) = unicodeEscape(text, at: read)
                UTF8.encode(scalar) { unit in
                    output[written] = unit
                    written += 1
                }
                read += length
                continue
            case let other: escaped = other
            }
            output[written] = escaped
            written += 1
            read += 2
        }
        return written
    }

    /// The string a checked string's text (the bytes between its quotes) stands for; see
    /// ``unescape(_:into:)``.
    public static func unescapedString(_ text: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: text.count) { unescape(text, into: $0) }
    }

    /// The scalar of the checked `\uXXXX` escape at `index`, joined with a following low-surrogate escape when
    /// it is a high surrogate, and how many bytes it took.
    static func unicodeEscape(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int) {
        let unit = hexQuad(text, at: index + 2)!
        switch unit {
        case 0xD800...0xDBFF:
            if text.count - index >= 12, text[index + 6] == UInt8(ascii: "\\"), text[index + 7] == UInt8(ascii: "u"),
                let low = hexQuad(text, at: index + 8), (0xDC00...0xDFFF).contains(low)
            {
                return (Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!, 12)
            }
            return ("\u{FFFD}", 6)
        case 0xDC00...0xDFFF:
            return ("\u{FFFD}", 6)
        default:
            return (Unicode.Scalar(unit)!, 6)
        }
    }

    // MARK: Numbers

    /// Checks the number at ``index`` against RFC 8259's grammar (an optional `-`, an integer part without
    /// leading zeros, an optional fraction and exponent) and steps over it. It ends at the first byte that
    /// cannot continue it; what may follow is the parser's business.
    @inlinable public mutating func scanNumber() throws(JSONParseError) -> ScannedNumber {
        let start = index
        if isAt(UInt8(ascii: "-")) {
            index += 1
        }
        guard index < bytes.count, Self.isDigit(bytes[index]) else {
            throw failure("invalid number, expected a digit")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, Self.isDigit(bytes[index]) {
                throw failure("invalid number, expected no leading zeros", at: start)
            }
        } else {
            skipDigits()
        }
        var isInteger = true
        if isAt(UInt8(ascii: ".")) {
            isInteger = false
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else {
                throw failure("invalid number, expected a digit after the decimal point")
            }
            skipDigits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if isAt(UInt8(ascii: "+")) || isAt(UInt8(ascii: "-")) {
                index += 1
            }
            guard index < bytes.count, Self.isDigit(bytes[index]) else {
                throw failure("invalid number, expected a digit in the exponent")
            }
            skipDigits()
        }
        return ScannedNumber(start: start, end: index, isInteger: isInteger)
    }

    @inline(__always) @inlinable static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    @inline(__always) @inlinable mutating func skipDigits() {
        while index < bytes.count, Self.isDigit(bytes[index]) {
            index += 1
        }
    }

    // MARK: Errors

    /// The error `problem` at `offset` (by default ``index``). It ends early when `endsEarly` says so, by
    /// default when every byte has been read.
    public func failure(_ problem: String, at offset: Int? = nil, endsEarly: Bool? = nil) -> JSONParseError {
        JSONParseError(problem, at: offset ?? index, in: bytes, endsEarly: endsEarly ?? (index >= bytes.count))
    }
}
