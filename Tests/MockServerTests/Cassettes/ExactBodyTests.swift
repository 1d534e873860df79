import Foundation
@testable import MockServer
import Testing

/// A recorded body replays as the very bytes the upstream sent: JSON inline only when its layout renders it
/// back exactly, exact text otherwise; headers replay in the cassette's order with repeats.
@Suite struct ExactBodyTests {
    struct BodyCase: Sendable, CustomTestStringConvertible {
        let name: String
        let body: String
        /// The form the cassette is expected to store: `json` with this layout name, or `text`.
        let stored: String
        var testDescription: String { name }
        var bytes: Data { Data(body.utf8) }
    }

    static let cases: [BodyCase] = [
        BodyCase(name: "compact, own key order", body: #"{"z":1,"a":[true,null,"x"],"m":{}}"#, stored: "json compact"),
        BodyCase(
            name: "pretty, two spaces, final newline",
            body:
                "{\n  \"slideshow\": {\n    \"title\": \"Sample\",\n    \"slides\": [\n      {\n        \"type\": \"all\"\n      },\n      []\n    ],\n    \"author\": \"Yours\"\n  }\n}\n",
            stored: "json indent-2 finalNewline"),
        BodyCase(name: "pretty, four spaces", body: "[\n    1,\n    {\n        \"b\": 2,\n        \"a\": {}\n    }\n]", stored: "json indent-4"),
        BodyCase(name: "pretty, tabs", body: "{\n\t\"b\": [\n\t\t1\n\t],\n\t\"a\": null\n}", stored: "json indent-tab"),
        BodyCase(name: "spaced, as Python writes", body: #"{"b": [1, 2], "a": {"c": "d e"}}"#, stored: "json spaced"),
        BodyCase(
            name: "unusual literals kept", body: #"{"f":1.0,"e":1e3,"E":-2.50E-7,"big":123456789012345678901234567890,"zero":-0}"#, stored: "json compact"),
        BodyCase(name: "escaped non-ASCII", body: #"{"name":"Andr\u00e9"}"#, stored: "text"),
        BodyCase(name: "escaped slashes", body: #"{"url":"https:\/\/example.com\/a"}"#, stored: "text"),
        BodyCase(name: "JSONEncoder's pretty layout", body: "{\n  \"a\" : 1\n}", stored: "text"),
        BodyCase(name: "byte order mark", body: "\u{FEFF}{\"a\":1}", stored: "text"),
        BodyCase(name: "trailing spaces", body: "{\"a\":1}  ", stored: "text"),
        BodyCase(name: "not JSON under a JSON type", body: "{oops: 1,}", stored: "text"),
        BodyCase(name: "a scalar", body: "42", stored: "json compact"),
    ]

    static func describe(_ body: RecordedBody) -> String {
        switch body.form {
        case .json(_, let layout): "json " + ([layout.name] + (layout.finalNewline ? ["finalNewline"] : [])).joined(separator: " ")
        case .text: "text"
        case .binary: "binary"
        case .empty: "empty"
        case .stream: "stream"
        }
    }

    @Test(arguments: cases)
    func storedForm_rendersTheSameBytes_throughTheCassetteFile(_ body: BodyCase) throws {
        // Given a body recorded under a JSON content type
        let recorded = RecordedBody(body.bytes, contentType: "application/json; charset=utf-8")
        // Then it is stored in the expected form and gives back the very bytes
        #expect(Self.describe(recorded) == body.stored)
        #expect(recorded.data == body.bytes)
        // And so does the same body after the cassette is written and read back
        let cassette = Cassette(
            name: "t",
            interactions: [
                Interaction(
                    request: RecordedRequest(method: "POST", target: "/x", headers: ["Content-Type": "application/json"], body: recorded),
                    response: RecordedResponse(status: 200, headers: ["Content-Type": "application/json"], body: recorded))
            ])
        let loaded = try Cassette(jsonData: cassette.encoded(), source: "t.json")
        #expect(loaded.interactions[0].request.body.data == body.bytes)
        #expect(loaded.interactions[0].response?.body.data == body.bytes)
        #expect(loaded.formatVersion == Cassette.currentVersion)
    }

    @Test func inlineBody_keepsItsKeyOrderInTheFile_whileTheCassettesOwnKeysAreSorted() throws {
        let body = RecordedBody(Data(#"{"zeta":1,"alpha":2}"#.utf8), contentType: "application/json")
        let cassette = Cassette(
            name: "t",
            interactions: [
                .init(
                    request: RecordedRequest(method: "GET", target: "/"),
                    response: RecordedResponse(status: 200, body: body))
            ])
        let text = String(decoding: cassette.encoded(), as: UTF8.self)
        let zeta = try #require(text.range(of: "\"zeta\""))
        let alpha = try #require(text.range(of: "\"alpha\""))
        #expect(zeta.lowerBound < alpha.lowerBound)
        #expect(text.range(of: "\"format\"")!.lowerBound < text.range(of: "\"interactions\"")!.lowerBound)
    }

    @Test func version1Cassette_loads_andReplaysItsInlineBodyCompactly() throws {
        let document = #"""
            {"format": "servicereplay-cassette", "version": 1, "name": "old", "interactions": [
              {"request": {"method": "GET", "target": "/a"},
               "response": {"status": 200, "headers": [["Content-Type", "application/json"]], "body": {"json": {"a": 1, "b": [1.50]}}}}]}
            """#
        let cassette = try Cassette(jsonData: Data(document.utf8), source: "old.json")
        #expect(cassette.formatVersion == 1)
        #expect(cassette.interactions[0].response?.replayResponse.body == Data(#"{"a":1,"b":[1.50]}"#.utf8))
        // Saved again, it is written in the current version
        #expect(try Cassette(jsonData: cassette.encoded(), source: "new.json").formatVersion == Cassette.currentVersion)
    }

    @Test(arguments: ["sideways", "indent-0", "indent-17", "indent-02"])
    func unknownLayout_isRefusedWithASentence(_ layout: String) {
        let document = """
            {"format": "servicereplay-cassette", "version": 2, "interactions": [{"request": {"method": "GET", "target": "/a"},
             "response": {"status": 200, "body": {"json": 1, "layout": "\(layout)"}}}]}
            """
        #expect {
            try Cassette(jsonData: Data(document.utf8), source: "F.json")
        } throws: { error in
            (error as? MockServerError)?.description
                == "F.json: interaction 0: response.body.layout: expected one of compact, spaced, indent-N (N from 1 to 16), indent-tab, found \"\(layout)\""
        }
    }

    @Test(arguments: cases)
    func capturedFromALoopbackUpstream_replaysTheSameBytes(_ body: BodyCase) async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("api.json")
        // Given an upstream answering with the body, recorded through the proxy into a file
        try await withUpstream(respond: { _ in
            .response(status: 200, headers: ["Content-Type": "application/json"], body: body.bytes)
        }) { upstream, _ in
            try await withRecordingServer(upstream: upstream, file: file) { _, base in
                let response = try await rawExchange(base, "GET /doc HTTP/1.1\r\nHost: localhost")
                #expect(response.body == body.bytes)
            }
        }
        // When the file is loaded and replayed
        let cassette = try Cassette.load(from: file)
        #expect(Self.describe(cassette.interactions[0].response!.body) == body.stored)
        try await withMockServer(cassettes: [cassette], configuration: .init(faults: .none, strict: true)) { server in
            let replayed = try await rawExchange(server.baseURL!, "GET /doc HTTP/1.1\r\nHost: localhost")
            // Then the client gets the upstream's bytes exactly
            #expect(replayed.body == body.bytes)
        }
    }

    @Test func headers_replayInTheCassettesOrder_withRepeats() async throws {
        let headers = HTTPHeaders(pairs: [
            ("X-Zeta", "1"), ("Set-Cookie", "a=1"), ("Content-Type", "text/plain"),
            ("X-Multi", "first"), ("Set-Cookie", "b=2"), ("X-Multi", "second"),
        ])
        let cassette = Cassette(
            name: "h",
            interactions: [
                .init(
                    request: RecordedRequest(method: "GET", target: "/h"),
                    response: RecordedResponse(status: 200, headers: headers, body: .text("ok")))
            ])
        let loaded = try Cassette(jsonData: cassette.encoded(), source: "h.json")
        try await withMockServer(cassettes: [loaded], configuration: .init(faults: .none, strict: true)) { server in
            let replayed = try await rawExchange(server.baseURL!, "GET /h HTTP/1.1\r\nHost: localhost")
            let lines = replayed.head.split(separator: "\r\n").dropFirst().map(String.init)
            #expect(
                Array(lines.prefix(6)) == [
                    "X-Zeta: 1", "Set-Cookie: a=1", "Content-Type: text/plain", "X-Multi: first",
                    "Set-Cookie: b=2", "X-Multi: second",
                ])
        }
    }

    @Test func capturedRepeatedHeaders_keepEveryCookie_andEveryValue() async throws {
        // URLSession on Linux hands over a dictionary: names come sorted and other repeats joined with ", ".
        try await withUpstream(respond: { _ in
            .response(
                status: 200,
                headers: HTTPHeaders(pairs: [
                    ("X-Multi", "first"), ("Set-Cookie", "a=1; Path=/"),
                    ("Content-Type", "text/plain"), ("Set-Cookie", "b=2"),
                    ("X-Multi", "second"),
                ]), body: Data("ok".utf8))
        }) { upstream, _ in
            let reports = ExchangeReports()
            try await withRecordingServer(upstream: upstream, onExchange: reports.append) { _, base in
                _ = try await rawExchange(base, "GET /h HTTP/1.1\r\nHost: localhost")
            }
            let recorded = try #require(reports.all.first?.interaction.response?.headers)
            #expect(recorded.values(for: "Set-Cookie") == ["a=<redacted>; Path=/", "b=<redacted>"])
            #expect(recorded.values(for: "X-Multi").joined(separator: ", ") == "first, second")
        }
    }

    @Test func harImport_keepsContentTextByteForByte_andExportImportIsByteExact() throws {
        // Given a cassette whose bodies are laid out in several ways, with repeated headers
        let interactions = Self.cases.map { body in
            Interaction(
                request: RecordedRequest(
                    method: "POST", target: "/x", headers: ["Content-Type": "application/json"],
                    body: RecordedBody(body.bytes, contentType: "application/json")),
                response: RecordedResponse(
                    status: 200, headers: HTTPHeaders(pairs: [("X-B", "1"), ("Content-Type", "application/json"), ("X-B", "2")]),
                    body: RecordedBody(body.bytes, contentType: "application/json")))
        }
        let cassette = Cassette(name: "layouts", upstream: "http://api.example", interactions: interactions)
        // When exported to HAR and imported back
        let har = try HARDocument(jsonData: cassette.har().encoded())
        for (index, body) in Self.cases.enumerated() {
            // Then the HAR holds each body's text exactly
            #expect(har.log.entries[index].response.content.text == body.body)
        }
        let back = try Cassette(har: har)
        // And the cassette written from it is the same file
        #expect(String(decoding: back.encoded(), as: UTF8.self) == String(decoding: cassette.encoded(), as: UTF8.self))
        for (index, body) in Self.cases.enumerated() {
            #expect(back.interactions[index].response?.body.data == body.bytes)
            #expect(back.interactions[index].response?.headers.lines.map(\.name) == ["X-B", "Content-Type", "X-B"])
        }
    }
}
