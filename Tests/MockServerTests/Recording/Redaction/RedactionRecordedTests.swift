import Foundation
@testable import MockServer
import Testing

@Suite struct RedactionRecordedTests {
    private static func leakyCassette() -> Cassette {
        let request = RecordedRequest(
            method: "POST", target: "/login?client=ios&access_token=abc&api_key=k",
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Authorization": "Bearer abc", "Cookie": "a=1; b=2"],
            body: .text("user=ann&password=hunter2"))
        let response = RecordedResponse(
            status: 200, headers: ["Content-Type": "application/json", "Set-Cookie": "sid=9; Path=/"],
            body: .json(try! CassetteJSON(parsing: #"{"price": 1.50, "token": "t", "nested": [{"secret": 7}, {"secret": null}]}"#)))
        return Cassette(
            name: "leaky",
            errorTemplates: ["x": RecordedResponse(status: 401, headers: ["X-Api-Key": "k"], body: .text("no"))],
            interactions: [Interaction(request: request, response: response)])
    }

    @Test func everyPlace_isRedacted_andCounted() throws {
        // Given a cassette with secrets in headers, query, form, JSON and an error template
        var cassette = Self.leakyCassette()
        // When redacted
        let count = RedactionRules.default.redact(&cassette)
        // Then each secret is a placeholder and counted once
        #expect(count == RedactionCount(headers: 4, queryParameters: 2, bodyFields: 3))
        #expect(count.description == "4 headers, 2 query parameters, 3 body fields")
        let interaction = try #require(cassette.interactions.first)
        #expect(interaction.request.target == "/login?client=ios&access_token=%3Credacted%3E&api_key=%3Credacted%3E")
        #expect(interaction.request.headers["Cookie"] == "a=<redacted>; b=<redacted>")
        #expect(interaction.request.body == .text("user=ann&password=<redacted>"))
        // And the other JSON members keep their literals
        #expect(interaction.response?.body.data == Data(#"{"price":1.50,"token":"<redacted>","nested":[{"secret":"<redacted>"},{"secret":null}]}"#.utf8))
        #expect(cassette.errorTemplates["x"]?.headers["X-Api-Key"] == "<redacted>")
        #expect(CassetteLinter().findings(in: cassette, file: "f").isEmpty)
    }

    @Test func secondPass_changesNothing() {
        var cassette = Self.leakyCassette()
        RedactionRules.default.redact(&cassette)
        let once = cassette
        #expect(RedactionRules.default.redact(&cassette) == RedactionCount())
        #expect(cassette == once)
        #expect(RedactionCount().description == "nothing")
    }

    @Test func addedNames_andJSONInsideText_areRedactedToo() {
        var request = RecordedRequest(
            method: "POST", target: "/x?pin=1234", headers: ["Content-Type": "application/json", "X-Session": "s"],
            body: .text(#"{"pin": "1234", "note": "kept"}"#))
        let count = RedactionRules.default.adding(headers: ["X-Session"], fields: ["pin"]).redact(&request)
        #expect(count == RedactionCount(headers: 1, queryParameters: 1, bodyFields: 1))
        #expect(request.body == .text(#"{"pin": "<redacted>", "note": "kept"}"#))
    }
}
