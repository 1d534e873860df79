import Testing

/// Lexical errors in JSON text with where and how the package's one JSON scanner reports them. ServiceKit's
/// tests and MockServer's run the same table through their own parsers, so both must report the same problem
/// at the same place.
package struct JSONLexicalErrorCase: Sendable, CustomTestStringConvertible {
    /// The malformed text.
    package let bytes: [UInt8]
    /// The expected `JSONParseError.problem`.
    package let problem: String
    /// The expected line, column and byte offset.
    package let line: Int, column: Int, byteOffset: Int
    /// Whether the text ends inside the document.
    package let endsEarly: Bool

    /// The text, invalid UTF-8 repaired, as the test's argument is shown.
    package var testDescription: String { String(decoding: bytes, as: UTF8.self) }

    init(_ text: [UInt8], _ problem: String, line: Int = 1, column: Int, byteOffset: Int, endsEarly: Bool = false) {
        self.bytes = text
        self.problem = problem
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.endsEarly = endsEarly
    }

    init(_ text: String, _ problem: String, line: Int = 1, column: Int, byteOffset: Int, endsEarly: Bool = false) {
        self.init(Array(text.utf8), problem, line: line, column: column, byteOffset: byteOffset, endsEarly: endsEarly)
    }

    private static let quote = UInt8(ascii: "\"")

    /// One case per lexical check of the scanner.
    package static let all: [JSONLexicalErrorCase] = [
        .init(
            "{\"k\":\n \"a\u{1}b\"}", "unescaped control character U+0001 in a string, expected the escape \\u0001",
            line: 2, column: 4, byteOffset: 9),
        .init(
            "[\"\u{1F}\"]", "unescaped control character U+001F in a string, expected the escape \\u001F", column: 3, byteOffset: 2),
        .init(#"["\q"]"#, #"invalid escape in a string, expected \" \\ \/ \b \f \n \r \t or \uXXXX"#, column: 3, byteOffset: 2),
        .init(#"["\u12G4"]"#, #"invalid \u escape, expected four hexadecimal digits"#, column: 3, byteOffset: 2),
        .init(#"["\u00"#, #"invalid \u escape, expected four hexadecimal digits"#, column: 3, byteOffset: 2, endsEarly: true),
        .init("[-012]", "invalid number, expected no leading zeros", column: 2, byteOffset: 1),
        .init("[-]", "invalid number, expected a digit", column: 3, byteOffset: 2),
        .init("[1.]", "invalid number, expected a digit after the decimal point", column: 4, byteOffset: 3),
        .init("[1e+]", "invalid number, expected a digit in the exponent", column: 5, byteOffset: 4),
        .init("[1E", "invalid number, expected a digit in the exponent", column: 4, byteOffset: 3, endsEarly: true),
        .init("[nul]", "invalid literal, expected null", column: 2, byteOffset: 1),
        .init("[fals", "invalid literal, expected false", column: 2, byteOffset: 1, endsEarly: true),
        .init("[\"abc", "unterminated string, expected a closing quote", column: 2, byteOffset: 1, endsEarly: true),
        .init("[\"a\\", "unterminated string, expected a closing quote", column: 2, byteOffset: 1, endsEarly: true),
        // Invalid UTF-8 is reported at the sequence's first byte, its column counted in characters.
        .init(
            Array("[\"é\", \"".utf8) + [0xFF, quote], "invalid UTF-8 in a string, expected a well-formed UTF-8 sequence",
            column: 8, byteOffset: 8),
        .init([0x5B, quote, 0xC3, 0x28, quote], "invalid UTF-8 in a string, expected a well-formed UTF-8 sequence", column: 3, byteOffset: 2),
        // An overlong encoding of '/', a surrogate encoded as UTF-8, a scalar past U+10FFFF.
        .init([0x5B, quote, 0xC0, 0xAF, quote], "invalid UTF-8 in a string, expected a well-formed UTF-8 sequence", column: 3, byteOffset: 2),
        .init([0x5B, quote, 0xE0, 0x9F, 0xBF, quote], "invalid UTF-8 in a string, expected a well-formed UTF-8 sequence", column: 3, byteOffset: 2),
        .init([0x5B, quote, 0xED, 0xA0, 0x80, quote], "invalid UTF-8 in a string, expected a well-formed UTF-8 sequence", column: 3, byteOffset: 2),
        .init([0x5B, quote, 0xF0, 0x8F, 0xBF, 0xBF, quote], "invalid UTF-8 in a string, expected a well-formed UTF-8 sequence", column: 3, byteOffset: 2),
        .init([0x5B, quote, 0xF4, 0x90, 0x80, 0x80, quote], "invalid UTF-8 in a string, expected a well-formed UTF-8 sequence", column: 3, byteOffset: 2),
        .init([0x5B, quote, 0xF5, 0x80, 0x80, 0x80, quote], "invalid UTF-8 in a string, expected a well-formed UTF-8 sequence", column: 3, byteOffset: 2),
        // A sequence cut off by the end of the text is a string never closed.
        .init([0x5B, quote, 0xE2, 0x82], "unterminated string, expected a closing quote", column: 2, byteOffset: 1, endsEarly: true),
    ]
}

/// `\u` escapes of surrogates, and what each parser makes of them: ServiceKit reads a lone one as U+FFFD, a
/// cassette refuses it at the escape's backslash.
package struct JSONSurrogateCase: Sendable, CustomTestStringConvertible {
    /// A one-element array holding the string: `["..."]`.
    package let text: String
    /// The string ServiceKit reads.
    package let replaced: String
    /// The byte offset at which a cassette refuses it, or `nil` when it reads the same string.
    package let refusedAt: Int?

    /// The text, as the test's argument is shown.
    package var testDescription: String { text }

    /// Lone high and low surrogates, a high one followed by something else, and pairs at the edges.
    package static let all: [JSONSurrogateCase] = [
        JSONSurrogateCase(text: #"["\ud800"]"#, replaced: "\u{FFFD}", refusedAt: 2),
        JSONSurrogateCase(text: #"["\uDC00"]"#, replaced: "\u{FFFD}", refusedAt: 2),
        JSONSurrogateCase(text: #"["\uDFFF"]"#, replaced: "\u{FFFD}", refusedAt: 2),
        JSONSurrogateCase(text: #"["a\ud800\u0041"]"#, replaced: "a\u{FFFD}A", refusedAt: 3),
        JSONSurrogateCase(text: #"["\ud800\ud800"]"#, replaced: "\u{FFFD}\u{FFFD}", refusedAt: 2),
        JSONSurrogateCase(text: #"["\ud800x"]"#, replaced: "\u{FFFD}x", refusedAt: 2),
        JSONSurrogateCase(text: #"["\udc00\ud800"]"#, replaced: "\u{FFFD}\u{FFFD}", refusedAt: 2),
        JSONSurrogateCase(text: #"["\ud83d\ude00x"]"#, replaced: "😀x", refusedAt: nil),
        JSONSurrogateCase(text: #"["\uDBFF\uDFFF"]"#, replaced: "\u{10FFFF}", refusedAt: nil),
        JSONSurrogateCase(text: #"["\uD7FF\uE000"]"#, replaced: "\u{D7FF}\u{E000}", refusedAt: nil),
    ]
}
