import Foundation
@testable import MockServer
import ServiceReplayShared
import Testing

/// The JSON layer under cassettes: a strict parser with positions, and a writer identical to JSONEncoder's.
@Suite struct CassetteJSONTests {
    private struct Sample: Encodable {
        var Ab = 3
        var B = [Int]()
        var a10 = ["k": [String: Int]()]
        var a2 = [[1, 2], [Int]()]
        var text = "a/b \"q\" \\ \n\t\r\u{8}\u{c}\u{1}\u{1f} é 😀 \u{2028}"
        var flag = true
        var number = -12
        var nested = ["z": ["y": 1], "é": ["x": 2], "Z": ["w": 3]]
    }

    @Test func prettyWriting_matchesJSONEncoderByteForByte() throws {
        // GIVEN a value with sorted-key, escaping and empty-container edge cases, encoded by Foundation
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let foundation = try encoder.encode(Sample())
        // WHEN we parse it and write it back
        let ours = try CassetteJSON(parsing: foundation).serialized(pretty: true)
        // THEN the bytes are identical
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: foundation, as: UTF8.self))
    }

    @Test func compactWriting_matchesJSONEncoderByteForByte() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let foundation = try encoder.encode(Sample())
        let ours = try CassetteJSON(parsing: foundation).serialized()
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: foundation, as: UTF8.self))
    }

    @Test func numbers_keepTheirLiteralText() throws {
        let value = try CassetteJSON(parsing: #"[1.50, 12345678901234567890123, -0, 1E+2]"#)
        #expect(value.compactText == "[1.50,12345678901234567890123,-0,1E+2]")
    }

    @Test(arguments: [
        ("1", "1.0", true), ("1", "1e0", true), ("10e-1", "1", true), ("0", "-0", true), ("0.0", "0", true),
        ("120", "1.2e2", true), ("0.0012", "12e-4", true), ("1", "2", false), ("1", "-1", false),
        ("0.1", "1", false), ("12345678901234567890123", "12345678901234567890124", false),
    ])
    func numberEquality_isByValue(left: String, right: String, equal: Bool) throws {
        let lhs = try #require(JSONNumber(literal: left))
        let rhs = try #require(JSONNumber(literal: right))
        #expect((lhs == rhs) == equal)
        if equal { #expect(lhs.hashValue == rhs.hashValue) }
    }

    @Test(
        arguments: [
            ("18446744073709551615", UInt64.max, nil), ("9223372036854775807", UInt64(Int.max), Int.max),
            ("18446744073709551616", nil, nil), ("1e19", 10_000_000_000_000_000_000, nil), ("1e20", nil, nil),
            ("-1", nil, -1), ("-0", 0, 0), ("7.0", 7, 7), ("2.50e1", 25, 25), ("0.0e5", 0, 0),
            ("1.5", nil, nil), ("1e-1", nil, nil), ("1e999999999", nil, nil),
        ] as [(String, UInt64?, Int?)])
    func wholeNumbers_areReadFromTheLiteral_neverThroughADouble(literal: String, unsigned: UInt64?, signed: Int?) throws {
        let number = try #require(JSONNumber(literal: literal))
        #expect(number.exactly(UInt64.self) == unsigned)
        #expect(number.intValue == signed)
    }

    @Test(arguments: ["01", "1.", ".5", "+1", "1e", "--1", "0x1", "", "1 "])
    func numberLiteral_rejectsInvalidGrammar(literal: String) {
        #expect(JSONNumber(literal: literal) == nil)
    }

    @Test func objectEquality_ignoresKeyOrder() throws {
        let a = try CassetteJSON(parsing: #"{"a": 1, "b": {"c": [1, 2.0]}}"#)
        let b = try CassetteJSON(parsing: #"{"b": {"c": [1.0, 2]}, "a": 1}"#)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
    }

    @Test func strings_decodeEscapesAndSurrogatePairs() throws {
        let value = try CassetteJSON(parsing: #"["\u00e9\ud83d\ude00\n\/", "plain é"]"#)
        #expect(value == ["é😀\n/", "plain é"])
    }

    @Test(arguments: [
        ("", "line 1, column 1: unexpected end of input, expected a value"),
        ("{\"a\": 1,}", "line 1, column 9: expected a string key in an object, found '}'"),
        ("{\n  \"a\": 1\n  \"b\": 2\n}", "line 3, column 3: expected ',' or '}' after an object member, found '\"'"),
        ("[1 2]", "line 1, column 4: expected ',' or ']' after an array element, found '2'"),
        ("{\"a\" 1}", "line 1, column 6: expected ':' after an object key, found '1'"),
        ("{\"a\": 1, \"a\": 2}", "line 1, column 10: duplicate key \"a\" in an object"),
        ("[\"é\", tru]", "line 1, column 7: invalid literal, expected true"),
        ("\"abc", "line 1, column 1: unterminated string, expected a closing quote"),
        ("\"a\tb\"", "line 1, column 3: unescaped control character U+0009 in a string, expected the escape \\u0009"),
        ("\"\\x\"", #"line 1, column 2: invalid escape in a string, expected \" \\ \/ \b \f \n \r \t or \uXXXX"#),
        (
            "\"\\ud800\"",
            #"line 1, column 2: unpaired surrogate in a \u escape, expected a high surrogate \uD800-\uDBFF followed by a low surrogate \uDC00-\uDFFF"#
        ),
        ("[1] x", "line 1, column 5: unexpected 'x' after the JSON value"),
        ("-", "line 1, column 2: invalid number, expected a digit"),
        ("[01]", "line 1, column 2: invalid number, expected no leading zeros"),
        ("// c\n1", "line 1, column 1: unexpected '/', expected a value"),
    ])
    func syntaxErrors_nameLineColumnAndReason(input: String, message: String) {
        let error = #expect(throws: JSONParseError.self) { try CassetteJSON(parsing: input) }
        #expect(error.map(Self.located) == message)
    }

    @Test(arguments: [
        ("", true), ("{", true), ("[1,", true), ("{\"a\": tr", true), ("\"abc", true), ("\"\\u00", true), ("{\"a\"", true),
        ("[1 2]", false), ("{\"a\" 1}", false), ("[1] x", false), ("\"a\tb\"", false),
    ])
    func syntaxErrors_sayWhetherTheInputEndedInsideTheDocument(input: String, endsEarly: Bool) {
        do {
            _ = try CassetteJSON(parsing: input)
            Issue.record("expected a syntax error")
        } catch {
            #expect(error.endsEarly == endsEarly)
        }
    }

    @Test func invalidUTF8_isReportedAtTheOffendingByte() {
        let bytes = Data([UInt8(ascii: "["), UInt8(ascii: "\""), 0xFF, UInt8(ascii: "\""), UInt8(ascii: "]")])
        let error = #expect(throws: JSONParseError.self) { try CassetteJSON(parsing: bytes) }
        #expect(error.map(Self.located) == "line 1, column 3: invalid UTF-8 in a string, expected a well-formed UTF-8 sequence")
    }

    @Test func nesting_isLimited() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let error = #expect(throws: JSONParseError.self) { try CassetteJSON(parsing: deep) }
        #expect(error.map(Self.located) == "line 1, column 513: nesting deeper than 512 levels")
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect((try? CassetteJSON(parsing: fine)) != nil)
    }

    /// `line L, column C: PROBLEM`, as cassette errors print a syntax error after the file's name.
    private static func located(_ error: JSONParseError) -> String {
        "line \(error.line), column \(error.column): \(error.problem)"
    }
}
