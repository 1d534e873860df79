import Foundation
import ServiceKit
import Testing

@Suite struct JSONAccessorTests {
    @Test(arguments: [
        (JSONValue.string("abc"), "abc" as String?), (.integer(42), "42"), (.double(2.5), "2.5"),
        (.double(3), "3"), (.bool(true), nil), (.array([]), nil),
    ])
    func string_readsTextAndNumbers(value: JSONValue, expected: String?) {
        #expect(JSON(value).string == expected)
    }

    @Test(arguments: [
        (JSONValue.integer(42), 42 as Int?), (.double(42), 42), (.double(42.5), nil), (.string("42"), 42),
        (.string(" 7 "), 7), (.string("2.0"), 2), (.string("2.5"), nil), (.string("x"), nil), (.bool(true), nil),
    ])
    func int_readsNumbersAndNumericStrings(value: JSONValue, expected: Int?) {
        #expect(JSON(value).int == expected)
    }

    @Test(arguments: [
        (JSONValue.integer(2), 2.0 as Double?), (.double(2.5), 2.5), (.string("2.5"), 2.5), (.string("nan"), nil),
        (.string("inf"), nil), (.string(""), nil), (.bool(false), nil),
    ])
    func double_readsFiniteNumbersOnly(value: JSONValue, expected: Double?) {
        #expect(JSON(value).double == expected)
    }

    @Test(arguments: [
        (JSONValue.bool(true), true as Bool?), (.bool(false), false), (.integer(1), true), (.integer(0), false),
        (.integer(2), nil), (.string("true"), true), (.string("TRUE"), true), (.string("false"), false),
        (.string("1"), true), (.string("0"), false), (.string("yes"), nil), (.double(1), nil),
    ])
    func bool_readsTrueOneAndTrueString(value: JSONValue, expected: Bool?) {
        #expect(JSON(value).bool == expected)
    }

    @Test func url_readsNonEmptyStrings() {
        #expect(JSON("https://github.com/mojombo").url == URL(string: "https://github.com/mojombo"))
        #expect(JSON("").url == nil)
        #expect(JSON(1).url == nil)
    }

    @Test func subscripts_followObjectsAndArrays() {
        // Given a nested document
        let json = JSON(["items": [["owner": ["display_name": "Ann"]]]])
        // Then a chain of subscripts reaches the leaf and remembers how
        let leaf = json["items"][0]["owner"]["display_name"]
        #expect(leaf.string == "Ann")
        #expect(leaf.path.description == "$.items[0].owner.display_name")
    }

    @Test func subscripts_throughMissingOrMismatchedSteps_areAbsent() {
        let json = JSON(["items": [1], "name": "x"])
        #expect(!json["nope"]["deeper"].exists)
        #expect(!json["items"][5].exists)
        #expect(!json["name"]["first"].exists)
        #expect(!json["items"]["key"].exists)
        #expect(json["items"][5].path.description == "$.items[5]")
    }

    @Test func arrayAndObject_carryElementPaths() {
        let json = JSON(["list": ["a", "b"], "map": ["k": 1]])
        #expect(json["list"].array?.map(\.path.description) == ["$.list[0]", "$.list[1]"])
        #expect(json["map"].object?["k"]?.path.description == "$.map.k")
        #expect(json["list"].object == nil)
        #expect(json["map"].array == nil)
    }

    @Test func rootPath_readsDollar() {
        #expect(JSONPath.root.description == "$")
    }

    @Test func pathSpelling_dotsPlainNames_andBracketsEveryOtherName() {
        // RFC 9535's shorthand: a letter, `_` or non-ASCII first, digits after; anything else is a JSON string.
        let names: [(String, String)] = [
            ("login", "$.login"), ("_id2", "$._id2"), ("é", "$.é"), ("Z", "$.Z"), ("zone9", "$.zone9"),
            ("2fa", #"$["2fa"]"#), ("content-type", #"$["content-type"]"#), ("odd name", #"$["odd name"]"#), ("", #"$[""]"#),
            (#"a"b\c"#, #"$["a\"b\\c"]"#), ("line\nbreak\u{1}", #"$["line\nbreak\u0001"]"#),
            ("a\r\tb\u{1F}", #"$["a\r\tb\u001F"]"#),
        ]
        for (name, spelled) in names {
            #expect(JSON(["x": 1])[name].path.description == spelled)
        }
        #expect(JSON(["items": [1, 2, 3, 4]])["items"][3]["owner"].path.description == "$.items[3].owner")
    }
}
