import Foundation
@testable import MockServer
import Testing

/// The body rules of a cassette's `matching` block (`ignoreBodyPaths`, `ignoreXMLElements`, `ignoreBody`): read,
/// written back, refused with one sentence when they cannot take effect, and followed by lint's duplicate check.
@Suite struct MatchBodyRulesTests {
    static func cassette(matching: String) -> String {
        #"{"format":"servicereplay-cassette","version":2,"name":"c","matching":"# + matching + #","interactions":[]}"#
    }

    @Test func bodyRules_areRead_andWrittenBack() throws {
        // GIVEN a matching block with the three body rules
        let text = Self.cassette(
            matching: #"{"ignoreBodyPaths":["$.idempotencyKey","$.items[*].id"],"ignoreXMLElements":["Latest"],"ignoreBody":["PUT /c/*"]}"#)
        // WHEN read, written and read again
        let cassette = try Cassette(jsonData: Data(text.utf8), source: "c.json")
        let again = try Cassette(jsonData: cassette.encoded(), source: "c.json")
        // THEN each rule is kept as written
        #expect(cassette.matching.ignoredBodyPaths == ["$.idempotencyKey", "$.items[*].id"])
        #expect(cassette.matching.ignoredXMLElements == ["Latest"])
        #expect(cassette.matching.ignoredBodies == ["PUT /c/*"])
        #expect(again.matching == cassette.matching)
    }

    @Test func bodyRules_surviveAHARRoundTrip() throws {
        // GIVEN a cassette with the three body rules WHEN exported to HAR and imported back
        let rules = MatchRules(ignoredBodyPaths: ["$.key"], ignoredXMLElements: ["Latest"], ignoredBodies: ["/c/*"])
        let cassette = Cassette(name: "c", upstream: "https://api.example", matching: rules, interactions: [.stub("GET", "/a", json: [:])])
        let imported = try Cassette(har: cassette.har())
        // THEN the rules are the same
        #expect(imported.matching == rules)
    }

    @Test(arguments: [
        (#"{"ignoreBodyPaths":["idempotencyKey"]}"#, "matching.ignoreBodyPaths[0]", "it must start with $"),
        (#"{"ignoreBodyPaths":["$.a[x]"]}"#, "matching.ignoreBodyPaths[0]", "neither an index, * nor a quoted name"),
        (#"{"ignoreBodyPaths":["$"]}"#, "matching.ignoreBodyPaths[0]", "use ignoreBody"),
        (#"{"ignoreXMLElements":["<Latest>"]}"#, "matching.ignoreXMLElements[0]", "is not an XML element name"),
        (#"{"ignoreBody":["PUT"]}"#, "matching.ignoreBody[0]", "names no request"),
        (#"{"ignoreBody":["PUT c/*"]}"#, "matching.ignoreBody[0]", "names no request"),
        (#"{"ignoreBodyPaths":["$.a[\"]"]}"#, "matching.ignoreBodyPaths[0]", "neither an index, * nor a quoted name"),
        (#"{"ignoreBodyPath":["$.a"]}"#, "matching", "ignoreBodyPath"),
    ])
    func ruleThatCannotTakeEffect_isRefusedWithItsPlace(matching: String, field: String, reason: String) {
        // WHEN a cassette with the rule is read THEN one error names the rule's place and why
        #expect {
            try Cassette(jsonData: Data(Self.cassette(matching: matching).utf8), source: "c.json")
        } throws: { error in
            let text = "\(error)"
            return text.contains(field) && text.contains(reason)
        }
    }

    @Test func serverWithARuleThatCannotTakeEffect_isRefused() {
        // WHEN a server is made with a JSON path that does not parse THEN it throws one sentence naming it
        #expect {
            _ = try CassetteServer(cassettes: [], configuration: .init(matching: MatchRules(ignoredBodyPaths: ["items.id"])))
        } throws: { error in
            "\(error)".contains("matching.ignoreBodyPaths[0]") && "\(error)".contains("\"items.id\" is not a JSON path")
        }
    }

    @Test func lint_duplicatesFollowTheBodyRules() {
        // GIVEN two payments recorded with different idempotency keys and the same answer
        func payment(_ key: String) -> Interaction {
            .stub("POST", "/pay", json: ["ok": true], requestBody: .json(["amount": 5, "idempotencyKey": .string(key)]))
        }
        let interactions = [payment("k-1"), payment("k-2")]
        // THEN they are distinct requests without the rule, and one repeated request with it
        #expect(CassetteLinter.duplicates(in: Cassette(name: "c", interactions: interactions)).isEmpty)
        let ignoring = Cassette(name: "c", matching: MatchRules(ignoredBodyPaths: ["$.idempotencyKey"]), interactions: interactions)
        #expect(CassetteLinter.duplicates(in: ignoring) == [CassetteLinter.Duplicate(index: 1, original: 0)])
    }

    @Test(arguments: [
        ("<L>a</L><x>b</x>", "<L></L><x>b</x>"),
        (#"<ns:L attr="1">a</ns:L>"#, #"<ns:L attr="1"></ns:L>"#),
        ("<L><L>a</L>b</L>c", "<L></L>c"),
        ("<L/><L>a</L>", "<L/><L></L>"),
        ("<L\tx=\"1\">a</L>", "<L\tx=\"1\"></L>"),
        ("<Long>a</Long>", "<Long>a</Long>"),
        ("<L>unclosed", "<L>unclosed"),
        ("not xml <L>a</L>", "not xml <L>a</L>"),
    ])
    func xmlElementContent_isBlankedByLocalName(input: String, expected: String) {
        #expect(String(decoding: XMLElementContent.blanking(["L"], in: Data(input.utf8)), as: UTF8.self) == expected)
    }
}
