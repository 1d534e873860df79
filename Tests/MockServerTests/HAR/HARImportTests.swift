import Foundation
@testable import MockServer
import Testing

@Suite struct HARImportTests {
    private func importShop() throws -> HARImport {
        try Cassette.importing(try HARFixtures.browserDocument(), options: HARImportOptions(name: "shop", host: "shop.example.com"))
    }

    @Test func browserArchive_keepsOneHost_andCountsTheSkippedEntry() throws {
        // Given a browser archive with one font from a CDN
        // When importing the shop's host
        let result = try importShop()
        // Then the CDN entry is skipped and the upstream is the shop's origin
        #expect(result.skippedEntries == 1)
        #expect(result.cassette.upstream == "https://shop.example.com")
        #expect(result.cassette.name == "shop")
        #expect(result.cassette.origin == .recorded)
        #expect(result.cassette.note == "Imported from a HAR archive written by WebInspector 537.36.")
        #expect(
            result.cassette.interactions.map(\.request.target) == [
                "/api/cart?currency=EUR&token=%3Credacted%3E&view=full", "/login", "/images/dot.png", "/api/cart/items", "/api/recommendations?limit=4",
            ])
    }

    @Test func gzippedHTTP2Response_dropsPseudoAndFramingHeaders_keepsRepeatedSetCookie() throws {
        // Given the cart fetch over HTTP/2 with a gzip'd body that the browser stored decoded
        let interaction = try importShop().cassette.interactions[0]
        // Then pseudo-headers, Content-Encoding and the compressed Content-Length are gone; the rest keeps its order
        #expect(interaction.request.headers.lines.map(\.name) == ["accept", "accept-encoding", "cookie", "user-agent"])
        #expect(interaction.request.headers["Cookie"] == "sid=<redacted>; theme=<redacted>")
        let response = try #require(interaction.response)
        #expect(response.headers.lines.map(\.name) == ["cache-control", "content-type", "date", "set-cookie", "set-cookie", "vary"])
        #expect(
            response.headers.values(for: "Set-Cookie") == [
                "sid=<redacted>; Path=/; Secure; HttpOnly; SameSite=Lax", "cart_seen=<redacted>; Path=/; Max-Age=3600",
            ])
        // And the body is JSON, literals kept
        guard case .json(let value, _) = response.body.form else {
            Issue.record("expected a JSON body, found \(response.body)")
            return
        }
        #expect(value.compactText.contains("\"price\":12.50"))
        #expect(value["total"] == 33.9)
        #expect(abs((interaction.recordedAt?.timeIntervalSince1970 ?? 0) - 1_795_356_191.517) < 0.0005)
        #expect(interaction.durationMs == 84)
    }

    @Test func formPost_isRedacted_andAnHonestContentLengthStays() throws {
        let interaction = try importShop().cassette.interactions[1]
        #expect(interaction.request.body == .text("username=ann%40example.com&password=<redacted>&remember=on"))
        #expect(interaction.request.headers["Content-Length"] == "55")
        let response = try #require(interaction.response)
        #expect(response.status == 302)
        #expect(response.body == .empty)
        #expect(response.headers["Set-Cookie"] == "session=<redacted>; Path=/; HttpOnly")
        #expect(response.headers["Content-Length"] == "0")
    }

    @Test func base64Image_isBinary() throws {
        let response = try #require(try importShop().cassette.interactions[2].response)
        guard case .binary(let data) = response.body.form else {
            Issue.record("expected a binary body, found \(response.body)")
            return
        }
        #expect(data.count == 70)
        #expect(data.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(response.headers["Content-Length"] == "70")
    }

    @Test func bearerTokenAndJSONSecret_areRedacted_chunkedFramingDropped() throws {
        let result = try importShop()
        let interaction = result.cassette.interactions[3]
        #expect(interaction.request.headers["Authorization"] == "<redacted>")
        #expect(interaction.request.body == .json(["sku": "C-3", "qty": 1, "gift_note": "Happy birthday!\nLove, Ann"]))
        let response = try #require(interaction.response)
        #expect(!response.headers.contains("Transfer-Encoding"))
        #expect(
            response.body.data
                == Data(#"{"id":981,"sku":"C-3","qty":1,"checkout":{"url":"https://shop.example.com/checkout","access_token":"<redacted>"}}"#.utf8))
        // Redacted: cookie, set-cookie ×2, set-cookie, authorization; token; password, access_token
        #expect(result.redacted == RedactionCount(headers: 5, queryParameters: 1, bodyFields: 2))
        #expect(CassetteLinter().findings(in: result.cassette, file: "shop.json") == [])
    }

    @Test func failedEntry_isATransportFailure_guessedFromChromesError() throws {
        let interaction = try importShop().cassette.interactions[4]
        #expect(interaction.failure == TransportFailure(kind: .reset, message: "net::ERR_CONNECTION_RESET"))
        #expect(interaction.durationMs == 30)
    }

    @Test(
        arguments: [
            ("net::ERR_CONNECTION_REFUSED", nil, TransportFailure.Kind.refused),
            ("net::ERR_TIMED_OUT", nil, .timeout),
            ("net::ERR_CONNECTION_CLOSED", nil, .reset),
            (nil, "failure: timeout", .timeout),
            (nil, nil, .reset),
        ] as [(String?, String?, TransportFailure.Kind)])
    func failureKinds_comeFromTheCommentOrTheBrowserError(error: String?, comment: String?, kind: TransportFailure.Kind) throws {
        let document = Self.document(entries: [
            Self.entry(
                url: "http://127.0.0.1:8080/x",
                response: HARResponse(
                    status: 0, statusText: "", httpVersion: "", headers: [], content: HARContent(size: 0, mimeType: "x-unknown", text: nil),
                    comment: comment, error: error))
        ])
        #expect(try Cassette(har: document).interactions.first?.failure?.kind == kind)
    }

    @Test func severalHosts_withoutAChoice_failNamingTheOtherHost() throws {
        #expect(
            throws: MockServerError(
                code: .multipleHosts, entry: 3, reason: "https://fonts.example-cdn.com is another host than https://shop.example.com of entry 0")
        ) {
            try Cassette(har: try HARFixtures.browserDocument())
        }
    }

    @Test(arguments: ["SHOP.example.com", "shop.example.com:443", "https://shop.example.com/"])
    func hostChoice_acceptsHostHostAndPortOrOrigin(host: String) throws {
        let result = try Cassette.importing(try HARFixtures.browserDocument(), options: HARImportOptions(host: host))
        #expect(result.cassette.interactions.count == 5)
        #expect(result.skippedEntries == 1)
    }

    @Test func hostChoice_matchingNothing_namesTheHostsThereAre() throws {
        #expect(
            throws: MockServerError(
                code: .noMatchingHost,
                reason: "no entry is for example.org; the archive's hosts are https://fonts.example-cdn.com, https://shop.example.com")
        ) {
            try Cassette.importing(try HARFixtures.browserDocument(), options: HARImportOptions(host: "example.org"))
        }
    }

    @Test(arguments: [
        (Self.entry(url: "data:image/png;base64,AAAA"), "request.url \"data:image/png;base64,AAAA\" is not an absolute http or https URL"),
        (Self.entry(url: "http://h/x", started: "yesterday"), "startedDateTime \"yesterday\" is not an ISO 8601 date"),
        (Self.entry(url: "http://h/x", method: "GET NOW"), "request.method \"GET NOW\" is not an HTTP method"),
        (Self.entry(url: "http://h/x", response: Self.response(status: 1000)), "response.status 1000 is not a status code from 100 to 999"),
        (Self.entry(url: "http://h/x", response: Self.response(text: "%%%", encoding: "base64")), "response.content.text is not valid base64"),
        (
            Self.entry(url: "http://h/x", response: Self.response(text: "x", encoding: "gzip")),
            "response.content.encoding \"gzip\" is not supported; only base64 is"
        ),
        (
            Self.entry(
                url: "http://h/x",
                response: Self.response(
                    text: "H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAAAA==", encoding: "base64", headers: [HARNameValue(name: "Content-Encoding", value: "gzip")])),
            "response body is still gzip-compressed; export the archive again with decoded content"
        ),
        (
            Self.entry(url: "http://h/x", postData: HARPostData(mimeType: "multipart/form-data", text: nil, params: [HARParam(name: "a", value: "1")])),
            "request.postData has params but no text, and its multipart type names no boundary"
        ),
        // Found by fuzzing: imported, it gave a cassette that does not load.
        (
            Self.entry(url: "http://h/x", response: Self.response(headers: [HARNameValue(name: "A", value: "1"), HARNameValue(name: "", value: "x")])),
            "response.headers[1]: the header name is empty"
        ),
    ])
    func badEntries_failWithOneSentenceNamingTheEntryAndField(entry: HAREntry, reason: String) {
        #expect(throws: MockServerError(code: .invalidField, entry: 0, reason: reason)) {
            try Cassette(har: Self.document(entries: [entry]))
        }
    }

    @Test func formParamsWithoutText_becomeTheBody() throws {
        // Given writers that give only the fields of a form and of a multipart body
        let form = Self.entry(
            url: "http://h/f",
            postData: HARPostData(
                mimeType: "application/x-www-form-urlencoded", text: nil,
                params: [HARParam(name: "q", value: "tea & mugs"), HARParam(name: "page", value: "2")]))
        let multipart = Self.entry(
            url: "http://h/m",
            postData: HARPostData(
                mimeType: "multipart/form-data; boundary=XyZ", text: nil,
                params: [
                    HARParam(name: "caption", value: "Hi"), HARParam(name: "photo", value: "JPEG", fileName: "p.jpg", contentType: "image/jpeg"),
                ]))
        // When imported
        let cassette = try Cassette(har: Self.document(entries: [form, multipart]))
        // Then the bodies are rebuilt as the browser would have sent them
        #expect(cassette.interactions[0].request.body == .text("q=tea+%26+mugs&page=2"))
        #expect(
            cassette.interactions[1].request.body.data
                == Data(
                    ("--XyZ\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nHi\r\n"
                        + "--XyZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"p.jpg\"\r\nContent-Type: image/jpeg\r\n\r\nJPEG\r\n--XyZ--\r\n")
                        .utf8))
    }

    @Test(arguments: [
        (
            "{\"log\": {\"version\": \"1.2\", \"creator\": {\"name\": \"x\", \"version\": \"1\"}}}", MockServerError.Code.invalidField,
            "log.entries: the field is missing"
        ),
        (
            "{\"log\": {\"version\": \"1.2\", \"creator\": {\"name\": \"x\", \"version\": \"1\"}, \"entries\": [{\"startedDateTime\": 5}]}}",
            .invalidField, "log.entries[0].startedDateTime: expected a string"
        ),
        ("{\"log\": [1,}", .syntax, "invalid JSON at line 1, column 12: unexpected '}', expected a value"),
        // An archive cut short (a browser's export interrupted) says so, as a cut cassette does.
        (
            "{\"log\": {\"entries\": [", .syntax,
            "invalid JSON at line 1, column 22: unexpected end of input, expected a value; the file ends before its JSON does, so it was cut short"
        ),
        // Found by fuzzing: Foundation's decoder, handed this, crashed under AddressSanitizer.
        (
            String(repeating: "[", count: 513) + "\n  \r\r\r\r\r\r\r[", .syntax,
            "invalid JSON at line 1, column 513: nesting deeper than 512 levels"
        ),
    ])
    func malformedArchives_nameTheFileAndField(json: String, code: MockServerError.Code, reason: String) {
        #expect(throws: MockServerError(code: code, file: "bad.har", reason: reason)) {
            try HARDocument(jsonData: Data(json.utf8), source: "bad.har")
        }
    }

    static func document(entries: [HAREntry]) -> HARDocument {
        HARDocument(log: HARLog(creator: HARCreator(name: "test", version: "1"), entries: entries))
    }

    static func response(status: Int = 200, text: String? = nil, encoding: String? = nil, headers: [HARNameValue] = []) -> HARResponse {
        HARResponse(
            status: status, statusText: "", httpVersion: "HTTP/1.1", headers: headers,
            content: HARContent(size: 0, mimeType: "application/octet-stream", text: text, encoding: encoding))
    }

    static func entry(
        url: String, started: String = "2026-11-22T10:00:00Z", method: String = "GET", postData: HARPostData? = nil,
        response: HARResponse = response()
    ) -> HAREntry {
        HAREntry(
            startedDateTime: started, time: 1, request: HARRequest(method: method, url: url, httpVersion: "HTTP/1.1", headers: [], postData: postData),
            response: response)
    }
}
