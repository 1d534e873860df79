import Foundation
import ServiceKit
import ServiceReplayTestSupport
import Testing

@Suite struct JSONValueParsingTests {
    @Test func parse_dropsNullMembersAndElements() throws {
        // Given a document with nulls in an object and in an array
        let data = Data(#"{"id": "17", "email": null, "tags": ["a", null, "b"], "owner": {"name": null}}"#.utf8)
        // When it is parsed
        let value = try JSONValue.parse(data)
        // Then no null survives
        #expect(value == ["id": "17", "tags": ["a", "b"], "owner": [:]])
    }

    @Test func parse_keepsIntegersApartFromFractions() throws {
        let value = try JSONValue.parse(Data(#"[1, -7, 2.5, 1e3, 9223372036854775808]"#.utf8))
        guard case .array(let numbers)? = value else {
            Issue.record("expected an array")
            return
        }
        #expect(numbers[0] == .integer(1))
        #expect(numbers[1] == .integer(-7))
        #expect(numbers[2] == .double(2.5))
        #expect(numbers[3] == .integer(1000) || numbers[3] == .double(1000))
        // A number too large for Int is still a number
        #expect(numbers[4] == .double(9223372036854775808))
    }

    @Test func parse_readsBooleansAndStrings() throws {
        let value = try JSONValue.parse(Data(#"{"t": true, "f": false, "s": "caf\u00e9 \"q\""}"#.utf8))
        #expect(value == ["t": true, "f": false, "s": "café \"q\""])
    }

    @Test func parse_nullDocument_isNil() throws {
        #expect(try JSONValue.parse(Data("null".utf8)) == nil)
    }

    @Test(arguments: ["", "{", "<html>", "{\"a\": tru}"])
    func parse_malformed_throwsUndecodableBody(text: String) {
        // When malformed text is parsed
        let error = #expect(throws: WebServiceError.self) { try JSONValue.parse(Data(text.utf8)) }
        // Then it is a service-level undecodable body, with the parser's error kept
        #expect(error?.reason == .service(.undecodableBody))
        #expect(error?.underlyingError != nil)
    }

    @Test func encoded_isCompactSortedAndRoundTrips() throws {
        // Given a value with unsorted keys and a URL
        let value: JSONValue = ["b": 1, "a": ["url": "https://x.example/p", "ok": true, "n": 2.5]]
        // When it is encoded
        let data = value.encoded()
        // Then the bytes are canonical and parse back to the same value
        #expect(String(decoding: data, as: UTF8.self) == #"{"a":{"n":2.5,"ok":true,"url":"https://x.example/p"},"b":1}"#)
        #expect(try JSONValue.parse(data) == value)
    }

    struct Located: Sendable, CustomTestStringConvertible {
        let text: String
        let line: Int
        let column: Int
        let byteOffset: Int
        let problem: String
        var testDescription: String { text }
    }

    @Test(arguments: [
        Located(text: "{\"a\": 1,\n \"b\": tru}", line: 2, column: 7, byteOffset: 15, problem: "invalid literal, expected true"),
        Located(
            text: "{\"a\": 1,\n \"b\": ?}", line: 2, column: 7, byteOffset: 15,
            problem: "expected a value (object, array, string, number, true, false or null)"),
        Located(text: "[1, 2\n,\n3", line: 3, column: 2, byteOffset: 9, problem: "the body ends inside an array"),
        Located(
            text: "{\"é\": \"x\" \"y\"}", line: 1, column: 11, byteOffset: 11,
            problem: "expected ',' or '}' after an object member"),
        Located(text: "[01]", line: 1, column: 2, byteOffset: 1, problem: "invalid number, expected no leading zeros"),
        Located(
            text: "[\"tab\there\"]", line: 1, column: 6, byteOffset: 5,
            problem: "unescaped control character U+0009 in a string, expected the escape \\u0009"),
        Located(text: "[1e999]", line: 1, column: 2, byteOffset: 1, problem: "the number is too large for a Double"),
        Located(text: "{} x", line: 1, column: 4, byteOffset: 3, problem: "unexpected text after the JSON value"),
        Located(text: "", line: 1, column: 1, byteOffset: 0, problem: "the body ends where a value was expected"),
    ])
    func parse_malformed_saysWhere(_ example: Located) {
        // When malformed text is parsed
        let error = #expect(throws: WebServiceError.self) { try JSONValue.parse(Data(example.text.utf8)) }
        // Then the parse error names the line, the column in characters and the byte offset
        let parseError = error?.underlyingError as? JSONParseError
        #expect(parseError?.problem == example.problem)
        #expect(parseError?.line == example.line)
        #expect(parseError?.column == example.column)
        #expect(parseError?.byteOffset == example.byteOffset)
        #expect(
            parseError?.description == "Invalid JSON at line \(example.line), column \(example.column) "
                + "(byte \(example.byteOffset)): \(example.problem).")
    }

    @Test func parse_invalidUTF8InAString_isRejectedAtTheSequence() {
        let error = #expect(throws: WebServiceError.self) { try JSONValue.parse(Data([0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D])) }
        let parseError = error?.underlyingError as? JSONParseError
        #expect(parseError?.problem == "invalid UTF-8 in a string, expected a well-formed UTF-8 sequence")
        #expect(parseError?.byteOffset == 2)
    }

    @Test func parse_readsEscapesAndSurrogatePairs_andLoneSurrogatesAsReplacement() throws {
        let text = #"["\"\\\/\b\f\n\r\t", "\u00e9\ud83d\ude00", "a\ud800b", "\udc00"]"#
        #expect(try JSONValue.parse(Data(text.utf8)) == ["\"\\/\u{8}\u{C}\n\r\t", "é😀", "a\u{FFFD}b", "\u{FFFD}"])
    }

    @Test func parse_integersAtTheEdgesOfInt() throws {
        let text = "[9223372036854775807, -9223372036854775808, -9223372036854775809, -0]"
        #expect(
            try JSONValue.parse(Data(text.utf8))
                == [.integer(.max), .integer(.min), .double(-9_223_372_036_854_775_808.0), .double(-0.0)])
    }

    // Found by the ServiceKitJSON fuzz target: `-0.0` encoded as `-0`, which parsed back as the integer 0
    // and encoded as `0`.
    @Test func parse_negativeZero_keepsItsSignThroughEncoding() throws {
        for text in ["-0", "-0.0", "-0e3"] {
            let value = try #require(try JSONValue.parse(Data(text.utf8)))
            guard case .double(let number) = value else { Issue.record("\(text) parsed to \(value)"); continue }
            #expect(number.sign == .minus)
            #expect(String(decoding: value.encoded(), as: UTF8.self) == "-0")
            #expect(try JSONValue.parse(value.encoded())?.encoded() == value.encoded())
            #expect(JSON(value).int == 0)
        }
    }

    @Test func parse_skipsALeadingByteOrderMark() throws {
        #expect(try JSONValue.parse(Data([0xEF, 0xBB, 0xBF] + Array("[true]".utf8))) == [true])
    }

    @Test func parse_repeatedKey_keepsTheLastValue() throws {
        #expect(try JSONValue.parse(Data(#"{"a": 1, "a": 2}"#.utf8)) == ["a": 2])
    }

    @Test func parse_nestingLimit_is128Levels_andAtItParsingAndEncodingFitApplesSecondaryThreadStack() throws {
        // Given documents nested exactly at and one past the limit
        let atLimit = String(repeating: "[", count: 127) + #"{"a":1}"# + String(repeating: "]", count: 127)
        let pastLimit = "[" + atLimit + "]"
        // When the first is parsed, read and encoded on a thread with the 512 KiB stack Apple platforms give
        // secondary threads (a debug build uses the most stack)
        let encoded = runOnThread(stackSize: 512 << 10) {
            (try? JSONValue.parse(Data(atLimit.utf8))).map { String(decoding: $0?.encoded() ?? Data(), as: UTF8.self) }
        }
        // Then it reads back whole, and the second is refused at its innermost container
        #expect(encoded == atLimit)
        let error = #expect(throws: WebServiceError.self) { try JSONValue.parse(Data(pastLimit.utf8)) }
        let parseError = error?.underlyingError as? JSONParseError
        #expect(parseError?.problem == "objects and arrays nested deeper than 128 levels")
        #expect(parseError?.byteOffset == 128)
    }
}
