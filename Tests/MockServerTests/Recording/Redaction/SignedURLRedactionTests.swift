import Foundation
@testable import MockServer
import Testing

/// Presigned URLs outside the request's own query: in headers, bodies and stream events, as written, in JSON
/// text, percent-encoded, and echoed back.
enum SignedURLs {
    static let awsSignature = "0f3a5c7e9b1d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a"
    static let awsCredential = "AKIAIOSFODNN7EXAMPLE%2F20261126%2Fus-east-1%2Fs3%2Faws4_request"
    /// GitHub's release-asset redirect.
    static let location =
        "https://objects.githubusercontent.com/github-production-release-asset/1/2?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        + "&X-Amz-Credential=\(awsCredential)&X-Amz-Date=20261126T000000Z&X-Amz-Expires=300&X-Amz-Signature=\(awsSignature)"
        + "&X-Amz-SignedHeaders=host&actor_id=0"
    static let redactedLocation = location.replacingOccurrences(of: awsSignature, with: Cassette.urlRedactionPlaceholder)
        .replacingOccurrences(of: awsCredential, with: Cassette.urlRedactionPlaceholder)
    static let azureSignature = "Zm9vYmFyYmF6cXV4Q29ycA%3D%3D"
    static let googleSignature = "5e1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"
}

@Suite struct URLParametersInTextTests {
    private func values(_ text: String) -> [String] {
        URLParametersInText.parameters(in: text, isSecret: RedactionRules.default.redactsField).map { parameter in
            let bytes = Array(text.utf8)
            return "\(parameter.name)=\(String(decoding: bytes[parameter.value], as: UTF8.self))"
        }
    }

    @Test(arguments: [
        (SignedURLs.location, ["X-Amz-Credential=\(SignedURLs.awsCredential)", "X-Amz-Signature=\(SignedURLs.awsSignature)"]),
        // JSON text: escaped slashes in the value, and Go's \u0026 for `&`
        (#"{"url":"https:\/\/a.blob.core.windows.net\/c\/b?sv=2022-11-02\u0026sig=ab+c\/d%3D\u0026se=2026"}"#, [#"sig=ab+c\/d%3D"#]),
        // HTML's &amp;
        ("<a href=\"https://cdn.example/v.mp4?Expires=1800000000&amp;Signature=abc~def&amp;Key-Pair-Id=K2\">", ["Signature=abc~def"]),
        // a whole URL percent-encoded in another URL's query: the value ends at its encoded `&`
        ("/login?next=https%3A%2F%2Fb.example%2Fo%3FX-Goog-Signature%3Dab12cd%26X-Goog-Date%3D1&x=1", ["X-Goog-Signature=ab12cd"]),
        ("/a?Sig=ABC&TOKEN=t-1;api-key=k2", ["Sig=ABC", "TOKEN=t-1", "api-key=k2"]),
        ("https://app.example/callback#access_token=ya29.a0-x&token_type=bearer", ["access_token=ya29.a0-x"]),
        (#"{"u":"https:\/\/x\/?token=ab\/"}"#, [#"token=ab\/"#]),
    ])
    func secretParameters_areFoundWhereverAURLIsWritten(text: String, expected: [String]) {
        #expect(values(text) == expected)
    }

    @Test func namesAddedToTheRules_mayHoldAnyLetterOrDigit() {
        let found = URLParametersInText.parameters(in: "/a?pin09=1234&zZ_9.-=5", isSecret: { ["pin09", "zZ_9.-"].contains($0) })
        #expect(found.map(\.name) == ["pin09", "zZ_9.-"])
    }

    @Test(arguments: [
        "https://api.github.com/user/repos?page=2&per_page=50",
        "The sig field holds the signature=value pair; see the sig docs.",
        "https://x.example/a?X-Amz-Signature=<redacted>&sig=%3Credacted%3E&token=&Signature=",
        "/a/sig=abc", "?sigma=1&signatures=2&token_type=bearer", "ends with ?token", "ends with &sig=",
    ])
    func ordinaryQueries_prose_andRedactedValues_holdNone(text: String) {
        #expect(values(text) == [])
    }

    @Test func redacting_keepsEveryOtherByte_andCountsEachValue() {
        let text = #"{"a":"x?sig=AB%2B\/c\u0026st=1","b":"y?token=tok&n=1"}"#
        let redacted = URLParametersInText.redacting(text, isSecret: RedactionRules.default.redactsField)
        #expect(redacted.text == #"{"a":"x?sig=%3Credacted%3E\u0026st=1","b":"y?token=%3Credacted%3E&n=1"}"#)
        #expect(redacted.count == 2)
        #expect(URLParametersInText.redacting(redacted.text, isSecret: RedactionRules.default.redactsField).count == 0)
    }

    @Test func urlCarriedEncodedInAnotherURL_getsThePlaceholderEncodedOnceMore_andASecondPassFindsNothing() {
        // GIVEN a presigned URL carried percent-encoded in a login redirect's query
        let text = "https://login.example/cb?next=https%3A%2F%2Fs3.example%2Fo%3FX-Amz-Signature%3Dabc123%26v%3D1"
        // WHEN it is redacted
        let redacted = URLParametersInText.redacting(text, isSecret: RedactionRules.default.redactsField)
        // THEN the inner URL, once decoded, holds the URL-legal placeholder, and redacting again changes nothing
        #expect(redacted.text == "https://login.example/cb?next=https%3A%2F%2Fs3.example%2Fo%3FX-Amz-Signature%3D%253Credacted%253E%26v%3D1")
        #expect(redacted.count == 1)
        #expect(URLParametersInText.redacting(redacted.text, isSecret: RedactionRules.default.redactsField).count == 0)
    }

    @Test func targetRedactedEitherWay_isLeftAsWritten_byASecondPass() {
        // GIVEN targets redacted before (with <redacted>) and now (URL-legal)
        for target in ["/o?sig=<redacted>&v=1", "/o?sig=%3Credacted%3E&v=1", "/o?sig=%3credacted%3e&v=1"] {
            // THEN redacting again changes no byte
            #expect(RedactionRules.default.redact(target: target) == target)
        }
    }

    @Test func signatureNames_areThePresignedQueryOnes_redactedByDefault() {
        for name in PresignedQuery.signingTimes.keys {
            #expect(RedactionRules.default.redactsField(name), "\(name)")
            #expect(RedactionRules.defaultFields.contains(RedactionRules.normalisedField(name)))
        }
        #expect(!RedactionRules.none.redactsField("X-Amz-Signature"))
        #expect(RedactionRules.defaultFields.count == 17)
    }
}

@Suite struct SignedURLRedactionTests {
    let rules = RedactionRules.default

    @Test func locationHeader_keepsTheURL_butItsSignature() {
        var response = RecordedResponse(
            status: 302,
            headers: HTTPHeaders(pairs: [
                ("Location", SignedURLs.location), ("Link", "<https://a.example/x?page=2>; rel=\"next\""), ("Content-Location", "/c/b?sp=r&sig=abc%3D"),
            ]))
        let count = rules.redact(&response)
        #expect(response.headers["Location"] == SignedURLs.redactedLocation)
        #expect(response.headers["Link"] == "<https://a.example/x?page=2>; rel=\"next\"")
        #expect(response.headers["Content-Location"] == "/c/b?sp=r&sig=%3Credacted%3E")
        #expect(count == RedactionCount(headers: 2))
        // And a request header (a Referer) too, through the rules for live traffic
        let live = rules.redact(HTTPRequest(method: "GET", target: "/", headers: ["Referer": SignedURLs.location]))
        #expect(live.headers["Referer"] == SignedURLs.redactedLocation)
    }

    @Test func jsonBody_signedURLStrings_atAnyDepth() throws {
        let body = try CassetteJSON(parsing: Data(#"{"assets":[{"browser_download_url":"\#(SignedURLs.location)","size":1.50}],"name":"v1"}"#.utf8))
        var request = RecordedRequest(method: "POST", target: "/hook", headers: ["Content-Type": "application/json"], body: .json(body))
        let count = rules.redact(&request)
        #expect(request.body.data == Data(#"{"assets":[{"browser_download_url":"\#(SignedURLs.redactedLocation)","size":1.50}],"name":"v1"}"#.utf8))
        #expect(count == RedactionCount(bodyFields: 2))
    }

    @Test func textBody_JSONWithEscapedSlashes_changesOnlyTheValues() {
        let text =
            #"{"url": "https:\/\/acct.blob.core.windows.net\/c\/b.txt?sv=2022-11-02\u0026se=2026-12-01\u0026sig=\#(SignedURLs.azureSignature)", "n": 1.0}"#
            + "\n"
        var response = RecordedResponse(status: 200, headers: ["Content-Type": "application/json"], body: .text(text))
        let count = rules.redact(&response)
        #expect(response.body.data == Data(text.replacingOccurrences(of: SignedURLs.azureSignature, with: Cassette.urlRedactionPlaceholder).utf8))
        #expect(count == RedactionCount(bodyFields: 1))
        // And a secret field in the same text counts beside it
        var both = RecordedResponse(
            status: 200, headers: ["Content-Type": "application/json"],
            body: .text(#"{"token":"t","u":"https:\/\/x\/?sig=abc"}"#))
        #expect(rules.redact(&both) == RedactionCount(bodyFields: 2))
        #expect(both.body == .text(#"{"token":"<redacted>","u":"https://x/?sig=%3Credacted%3E"}"#))
    }

    @Test func streamEvents_andTextParts_areRedacted_binaryPartsAndBodiesAreLeftAlone() {
        let data =
            #"{"download":"https:\/\/storage.googleapis.com\/b\/o?X-Goog-Algorithm=GOOG4-RSA-SHA256\u0026X-Goog-Signature=\#(SignedURLs.googleSignature)"}"#
        let binary = Data("?sig=abcdef&".utf8)
        let stream = RecordedStream([
            RecordedStream.Part(offsetMs: 0, .event(ServerSentEventFields(event: "asset", data: data))),
            RecordedStream.Part(offsetMs: 5, .text("see https://x.example/f?token=tok-1\n")),
            RecordedStream.Part(offsetMs: 9, .binary(binary)),
            RecordedStream.Part(offsetMs: 12, .event(ServerSentEventFields(data: #"{"api_key":"k-123","n":1}"#))),
        ])
        var response = RecordedResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: .stream(stream))
        let count = rules.redact(&response)
        guard case .stream(let redacted) = response.body.form else {
            Issue.record("the stream is gone"); return
        }
        #expect(
            redacted.parts.map(\.content) == [
                .event(
                    ServerSentEventFields(
                        event: "asset", data: data.replacingOccurrences(of: SignedURLs.googleSignature, with: Cassette.urlRedactionPlaceholder))),
                .text("see https://x.example/f?token=%3Credacted%3E\n"),
                .binary(binary),
                .event(ServerSentEventFields(data: #"{"api_key":"<redacted>","n":1}"#)),
            ])
        #expect(count == RedactionCount(bodyFields: 3))
        // A base64 body is bytes: left as it is, whatever it holds
        var bytes = RecordedResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: .binary(binary))
        #expect(rules.redact(&bytes).isEmpty)
        #expect(bytes.body == .binary(binary))
    }

    @Test func queryEchoedPercentEncoded_isRemoved_asAreItsOtherSpellings() {
        // Given a query whose Azure signature the service quotes back percent-encoded, and in JSON text
        let request = RecordedRequest(method: "GET", target: "/c/b?sv=2022-11-02&sig=abc+kl/mn=")
        let body = "Signature abc%2Bkl%2Fmn%3D did not match; got abc%2bkl%2fmn%3d, {\"s\":\"abc+kl\\/mn=\"}, and abc+kl/mn= once"
        var interaction = Interaction(
            request: request,
            response: RecordedResponse(
                status: 403, headers: ["Content-Type": "text/plain", "X-Echo": "abc%2Bkl%2Fmn%3D"], body: .text(body)))
        // When redacted
        let count = rules.redact(&interaction)
        // Then every spelling is gone and the rest kept
        #expect(interaction.request.target == "/c/b?sv=2022-11-02&sig=%3Credacted%3E")
        #expect(interaction.response?.body == .text("Signature <redacted> did not match; got <redacted>, {\"s\":\"<redacted>\"}, and <redacted> once"))
        #expect(interaction.response?.headers["X-Echo"] == "<redacted>")
        #expect(count == RedactionCount(headers: 1, queryParameters: 1, bodyFields: 1))
        #expect(RedactionRules.echoSpellings(of: "Za/b c+~9z-_.") == ["Za/b c+~9z-_.", "Za%2Fb%20c%2B~9z-_.", "Za%2fb%20c%2b~9z-_.", "Za\\/b c+~9z-_."])
    }

    @Test func echoes_ofThePercentEncodedQueryDecoded_andOfAWholeHeaderValue_areRemovedWhole() {
        // Given the usual Azure query (its sig percent-encoded) and a bearer token, both quoted back as they mean
        let request = RecordedRequest(method: "GET", target: "/c/b?sig=xyz%2Bkl%2Fmn%3D", headers: ["Authorization": "Bearer tok-abcdef"])
        var interaction = Interaction(
            request: request,
            response: RecordedResponse(
                status: 403, headers: ["Content-Type": "text/plain"], body: .text("sig xyz+kl/mn= is wrong; auth was Bearer tok-abcdef")))
        rules.redact(&interaction)
        // Then each is replaced whole
        #expect(interaction.response?.body == .text("sig <redacted> is wrong; auth was <redacted>"))
        // And control bytes are escaped with two hex digits
        #expect(RedactionRules.echoSpellings(of: "a\u{0F}\u{10}")[1] == "a%0F%10")
    }

    @Test func secondPass_changesNothing_andLintsClean() throws {
        var cassette = Self.signedCassette()
        let first = rules.redact(&cassette)
        #expect(!first.isEmpty)
        let once = cassette
        #expect(rules.redact(&cassette).isEmpty)
        #expect(cassette == once)
        #expect(CassetteLinter().findings(in: cassette, file: "f").isEmpty)
    }

    static func signedCassette() -> Cassette {
        let redirect = Interaction(
            request: RecordedRequest(method: "GET", target: "/o/r/releases/download/v1/app.zip"),
            response: RecordedResponse(status: 302, headers: ["Location": SignedURLs.location]))
        let json = Interaction(
            request: RecordedRequest(method: "GET", target: "/blob"),
            response: RecordedResponse(
                status: 200, headers: ["Content-Type": "application/json"],
                body: .text(#"{"url":"https:\/\/a.blob.core.windows.net\/c\/b?sv=1\u0026sig=\#(SignedURLs.azureSignature)"}"#)))
        return Cassette(name: "signed", interactions: [redirect, json])
    }
}

@Suite struct SignedURLFindingTests {
    let rules = RedactionRules.default

    @Test func signedURLs_inHeaders_JSON_text_andStreams_areFindings() {
        let response = HTTPResponse(
            status: 302, headers: HTTPHeaders(pairs: [("Location", SignedURLs.location), ("Content-Type", "application/json")]),
            body: Data(#"{"items":[{"url":"https:\/\/x.example\/o?Signature=abc~def\u0026Expires=1"}]}"#.utf8))
        #expect(
            rules.findings(response) == [
                "response header Location: looks like a credential (URL parameter `X-Amz-Credential`)",
                "response header Location: looks like a credential (URL parameter `X-Amz-Signature`)",
                "response body $.items[0].url: looks like a credential (URL parameter `Signature`)",
            ])
        let events = HTTPResponse(
            status: 200, headers: ["Content-Type": "text/event-stream"],
            body: Data("event: asset\ndata: {\"u\":\"https:\\/\\/b\\/o?X-Goog-Signature=\(SignedURLs.googleSignature)\"}\n\n".utf8))
        #expect(rules.findings(events) == ["response body text: looks like a credential (URL parameter `X-Goog-Signature`)"])
        // JSON that does not parse is scanned as text
        let broken = HTTPRequest(
            method: "POST", target: "/", headers: ["Content-Type": "application/json"],
            body: Data(#"{"u":"https://x/?sig=abc%2Bkl%3D""#.utf8))
        #expect(rules.findings(broken) == ["request body text: looks like a credential (URL parameter `sig`)"])
    }

    @Test func ordinaryURLs_prose_andRedactedSignatures_areNotFindings() {
        let response = HTTPResponse(
            status: 200,
            headers: HTTPHeaders(pairs: [
                ("Location", SignedURLs.redactedLocation), ("Link", "<https://api.github.com/user/repos?page=2&per_page=50>; rel=\"next\""),
                ("Content-Type", "text/plain"),
            ]), body: Data("Sign the URL: the sig parameter carries the signature; see https://docs.example/sas?lang=en&sig-help=1".utf8))
        #expect(rules.findings(response).isEmpty)
        let json = HTTPResponse(
            status: 200, headers: ["Content-Type": "application/json"],
            body: Data(#"{"next":"https://api.example/items?page=2","note":"the sig field","u":"https://x/?sig=<redacted>"}"#.utf8))
        #expect(rules.findings(json).isEmpty)
    }
}
