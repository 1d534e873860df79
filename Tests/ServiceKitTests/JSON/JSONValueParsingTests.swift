import Foundation
import ServiceKit
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
}
