import Foundation
@testable import MockServer
import Testing

@Suite struct CassetteCodingTests {
    private func fixture() throws -> Cassette {
        try Cassette(jsonData: Data(CassetteFixtures.githubUsers.utf8), source: "Recordings/github/users.json")
    }

    @Test func decoding_readsEveryField() throws {
        // GIVEN the canonical fixture WHEN decoded
        let cassette = try fixture()
        // THEN metadata, rules, templates and each interaction kind come through
        #expect(cassette.name == "github-users")
        #expect(cassette.upstream == "https://api.github.com")
        #expect(cassette.origin == .recorded)
        #expect(cassette.recordedAt == Date(timeIntervalSince1970: 1_795_255_200))
        #expect(
            cassette.matching
                == MatchRules(
                    ignoredQueryParameters: ["_"], ignoredBodyFields: ["timestamp"],
                    headers: ["Accept"], afterLast: .cycle))
        #expect(cassette.errorTemplates["rate_limit"]?.status == 403)
        #expect(cassette.interactions.count == 3)
        let first = cassette.interactions[0]
        #expect(first.durationMs == 87)
        #expect(first.request.target == "/users?since=0&per_page=2")
        #expect(first.response?.headers.values(for: "set-cookie") == ["a=1", "b=2"])
        #expect(
            first.response?.body
                == .json([
                    [
                        "avatar_url": "https://avatars.githubusercontent.com/u/1?v=4",
                        "id": 1, "login": "mojombo", "score": 1.5,
                    ]
                ]))
        #expect(cassette.interactions[1].recordedAt == Date(timeIntervalSince1970: 1_795_255_201.25))
        #expect(cassette.interactions[1].request.body == .text("username=ann&password=<redacted>"))
        #expect(cassette.interactions[1].response?.body == .binary(Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10])))
        #expect(cassette.interactions[2].failure == TransportFailure(kind: .reset, message: "The network connection was lost."))
    }

    @Test func encoding_afterDecoding_isByteIdentical() throws {
        let cassette = try fixture()
        #expect(String(decoding: cassette.encoded(), as: UTF8.self) == CassetteFixtures.githubUsers)
    }

    @Test func encoding_matchesJSONEncoderLayout() throws {
        // The contract says cassettes are written as JSONEncoder writes them; our writer must agree.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let cassette = Cassette(
            name: "n", upstream: "https://x.example/a", note: "é \"q\"",
            interactions: [
                Interaction(
                    request: RecordedRequest(method: "GET", target: "/a/b"),
                    response: RecordedResponse(status: 204))
            ])
        struct Shape: Encodable {
            struct Request: Encodable { var method: String; var target: String }
            struct Response: Encodable { var status: Int }
            struct Item: Encodable { var request: Request; var response: Response }
            var format = "servicereplay-cassette"; var version = Cassette.currentVersion; var name = "n"; var origin = "recorded"
            var upstream = "https://x.example/a"; var note = "é \"q\""
            var interactions = [Item(request: Request(method: "GET", target: "/a/b"), response: Response(status: 204))]
        }
        let expected = try encoder.encode(Shape())
        #expect(String(decoding: cassette.encoded(), as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    @Test func minimalHandWrittenCassette_getsDefaults() throws {
        let text =
            #"{"format": "servicereplay-cassette", "version": 1, "interactions": [{"request": {"method": "GET", "target": "/"}, "response": {"status": 200, "body": {"text": ""}}}]}"#
        let cassette = try Cassette(jsonData: Data(text.utf8), source: "Recordings/nice/feed.json")
        #expect(cassette.name == "feed")
        #expect(cassette.origin == .recorded)
        #expect(cassette.matching.afterLast == nil)
        #expect(cassette.interactions[0].response?.body == .empty)
    }

    @Test(arguments: [
        ("application/json", #"{"a": 1}"#, "json"),
        ("application/vnd.github+json; charset=utf-8", #"[1]"#, "json"),
        ("application/json", #"{"a": "#, "text"),
        ("application/json", #"{"a": 1, "a": 2}"#, "text"),
        ("text/html; charset=utf-8", "<p>hi</p>", "text"),
        ("application/x-www-form-urlencoded", "a=1&b=2", "text"),
        ("application/problem+xml", "<a/>", "text"),
        ("application/octet-stream", "abc", "binary"),
        ("", "abc", "binary"),
        ("text/plain; charset=iso-8859-1", "caf\u{E9}", "binary"),
        ("application/json", "", "empty"),
    ])
    func bodyRepresentation_isChosenByContentType(contentType: String, body: String, expected: String) {
        // latin-1 bytes for the iso-8859-1 row, UTF-8 otherwise
        let data = contentType.contains("8859") ? body.data(using: .isoLatin1)! : Data(body.utf8)
        let recorded = RecordedBody(data, contentType: contentType.isEmpty ? nil : contentType)
        let kind =
            switch recorded.form {
            case .empty: "empty"
            case .json: "json"
            case .text: "text"
            case .binary: "binary"
            case .stream: "stream"
            }
        #expect(kind == expected)
        #expect(recorded.isEmpty || recorded.data == data || kind == "json")
    }

    @Test func replayResponse_keepsJSONKeyOrderAndLiterals_andFixesFraming() throws {
        let response = RecordedResponse(
            status: 200,
            headers: HTTPHeaders(pairs: [
                ("Content-Type", "application/json"), ("Content-Encoding", "gzip"),
                ("Transfer-Encoding", "chunked"), ("Content-Length", "999"),
            ]),
            body: .json(try CassetteJSON(parsing: #"{"url": "https://x.example/a", "b": [1, 2.50]}"#))
        ).replayResponse
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"url":"https://x.example/a","b":[1,2.50]}"#)
        #expect(
            response.headers.lines == [
                HTTPHeader(name: "Content-Type", value: "application/json"),
                HTTPHeader(name: "Content-Length", value: String(response.body.count)),
            ])
    }

    @Test func replayResponse_ofHEAD_keepsRecordedContentLength() {
        let response = RecordedResponse(status: 200, headers: ["Content-Length": "1234"]).replayResponse
        #expect(response.headers["Content-Length"] == "1234")
        #expect(response.body.isEmpty)
    }

    @Test(arguments: [
        ("2026-11-21T10:00:00Z", 1_795_255_200.0, "2026-11-21T10:00:00Z"),
        ("2026-11-21T10:00:00.5Z", 1_795_255_200.5, "2026-11-21T10:00:00.500Z"),
        ("2026-11-21T11:00:00+01:00", 1_795_255_200.0, "2026-11-21T10:00:00Z"),
        ("1969-12-31T23:59:59Z", -1.0, "1969-12-31T23:59:59Z"),
        ("2024-02-29T00:00:00Z", 1_709_164_800.0, "2024-02-29T00:00:00Z"),
    ])
    func dates_parseAndFormatInUTC(text: String, seconds: Double, formatted: String) throws {
        let date = try #require(CassetteDate.parse(text))
        #expect(date.timeIntervalSince1970 == seconds)
        #expect(CassetteDate.format(date) == formatted)
    }

    @Test(arguments: ["2026-11-21", "2026-11-21 10:00:00Z", "2026-02-30T10:00:00Z", "2026-11-21T10:00:00", "yesterday"])
    func dates_rejectOtherSpellings(text: String) {
        #expect(CassetteDate.parse(text) == nil)
    }
}
