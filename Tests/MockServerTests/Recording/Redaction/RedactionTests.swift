import Foundation
@testable import MockServer
import Testing

@Suite struct RedactionTests {
    let rules = RedactionRules.default

    @Test func credentialHeaders_areReplaced_cookiesKeepTheirNames() {
        let headers: HTTPHeaders = [
            "Authorization": "Bearer abc.def", "Cookie": "session=s3cr3t; theme=dark", "X-Api-Key": "k-123",
            "X-Custom-Secret": "zzz", "Accept": "application/json", "Proxy-Authorization": "Basic dXNlcjpwYXNz",
        ]
        let redacted = rules.redact(headers)
        #expect(
            redacted.lines.map(\.value) == [
                "<redacted>", "session=<redacted>; theme=<redacted>", "<redacted>", "<redacted>", "application/json", "<redacted>",
            ])
    }

    @Test func setCookie_keepsNameAndAttributes() {
        let response = HTTPResponse(status: 200, headers: ["Set-Cookie": "sid=abc123; Path=/; HttpOnly", "Set-Cookie": "x=1"])
        #expect(rules.redact(response).headers.values(for: "set-cookie") == ["sid=<redacted>; Path=/; HttpOnly", "x=<redacted>"])
    }

    @Test(arguments: [
        ("/friends?user_id=42&token=abc", "/friends?user_id=42&token=%3Credacted%3E"),
        ("/a?access_token=x&api_key=y&page=2", "/a?access_token=%3Credacted%3E&api_key=%3Credacted%3E&page=2"),
        ("/a?Access-Token=x", "/a?Access-Token=%3Credacted%3E"),
        ("/a?pass%77ord=x", "/a?pass%77ord=%3Credacted%3E"),
        ("/a?flag&q=swift", "/a?flag&q=swift"),
        ("/no-query", "/no-query"),
    ])
    func secretQueryParameters_areReplaced_restKeptAsWritten(target: String, expected: String) {
        #expect(rules.redact(target: target) == expected)
    }

    @Test func formBody_secretFieldsReplaced() {
        let request = HTTPRequest(
            method: "POST", target: "/login", headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Data("username=ann&password=hunter2".utf8))
        #expect(String(decoding: rules.redact(request).body, as: UTF8.self) == "username=ann&password=<redacted>")
    }

    @Test func jsonBody_secretFieldsReplacedAtAnyDepth_nullsAndPlaceholdersKept() throws {
        let body = Data(#"{"user":{"name":"ann","password":"p"},"items":[{"token":"t1"},{"token":null}],"client_secret":"<redacted>"}"#.utf8)
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "application/json; charset=utf-8"], body: body)
        let redacted = String(decoding: rules.redact(response).body, as: UTF8.self)
        #expect(redacted == #"{"user":{"name":"ann","password":"<redacted>"},"items":[{"token":"<redacted>"},{"token":null}],"client_secret":"<redacted>"}"#)
    }

    @Test func bodiesWithoutSecrets_areKeptByteForByte() {
        let body = Data("{ \"b\": 1,   \"a\": [1.50] }".utf8)
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: body)
        #expect(rules.redact(response).body == body)
        let binary = Data([0xFF, 0xD8, 0xFF, 0x00])
        #expect(rules.redact(body: binary, contentType: "image/jpeg") == binary)
    }

    @Test func everyDefaultHeader_isRedacted_andThenLintsClean() {
        // GIVEN a request and a response carrying every header of the default list, in its own spelling
        for name in RedactionRules.defaultHeaders.sorted() {
            let headers = HTTPHeaders(pairs: [(name, "k=live-value-4711"), ("Accept", "*/*")])
            let request = rules.redact(HTTPRequest(method: "GET", target: "/", headers: headers))
            let response = rules.redact(HTTPResponse(status: 200, headers: headers))
            // THEN each is redacted (cookies keep their names), the other header is kept, and nothing is left to find
            for redacted in [request.headers, response.headers] {
                #expect(redacted.lines.first?.value.contains("live-value-4711") == false, "\(name)")
                #expect(redacted.lines.first?.value.contains(RedactionRules.placeholder) == true, "\(name)")
                #expect(redacted.lines.last?.value == "*/*", "\(name)")
            }
            #expect(rules.findings(request).isEmpty && rules.findings(response).isEmpty, "\(name)")
        }
        #expect(RedactionRules.defaultHeaders.count == 11)
    }

    @Test func presignedURLs_signatureAndCredentialParameters_areRedactedByDefault() {
        // GIVEN presigned URLs of AWS, Google Cloud Storage, Azure and CloudFront
        let targets = [
            (
                "/bucket/key?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20261126%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261126T000000Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host&X-Amz-Signature=0f3a5c7e9b1d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a",
                "/bucket/key?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=%3Credacted%3E&X-Amz-Date=20261126T000000Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host&X-Amz-Signature=%3Credacted%3E"
            ),
            (
                "/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=sa%40p.iam&X-Goog-Signature=ab12",
                "/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=%3Credacted%3E&X-Goog-Signature=%3Credacted%3E"
            ),
            ("/c/blob?sv=2022-11-02&se=2026-12-01&sp=r&sig=Zm9vYmFy%3D", "/c/blob?sv=2022-11-02&se=2026-12-01&sp=r&sig=%3Credacted%3E"),
            (
                "/v.mp4?Expires=1800000000&Signature=abc~def&Key-Pair-Id=K2JCJMDEHXQW5F",
                "/v.mp4?Expires=1800000000&Signature=%3Credacted%3E&Key-Pair-Id=K2JCJMDEHXQW5F"
            ),
        ]
        for (target, expected) in targets {
            // THEN the signature and credential are redacted, the rest kept as written, and nothing is left to find
            #expect(rules.redact(target: target) == expected)
            #expect(rules.findings(HTTPRequest(method: "GET", target: rules.redact(target: target))).isEmpty, "\(target)")
        }
    }

    @Test func addedRules_extendTheDefaults_noneRedactsNothing() {
        let extended = rules.adding(headers: ["X-Session"], fields: ["pin"])
        #expect(extended.redactsHeader("x-session") && extended.redactsField("PIN") && extended.redactsField("password"))
        #expect(!RedactionRules.none.redactsHeader("Authorization"))
        #expect(RedactionRules.none.redact(target: "/a?token=1") == "/a?token=1")
    }
}

@Suite struct SecretFindingTests {
    let scanner = RedactionRules.default

    @Test func redactedExchange_hasNoFindings() {
        let request = RedactionRules.default.redact(
            HTTPRequest(
                method: "POST", target: "/login?access_token=abc", headers: ["Authorization": "Bearer x", "Content-Type": "application/json"],
                body: Data(#"{"password":"p","username":"u"}"#.utf8)))
        #expect(scanner.findings(request).isEmpty)
    }

    @Test func leftoverSecrets_areEachNamedWithTheirPlace() {
        let request = HTTPRequest(
            method: "POST", target: "/x?token=abc&q=swift", headers: ["Authorization": "Bearer abc", "Content-Type": "application/json"],
            body: Data(#"{"auth":{"password":"hunter2"},"note":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig_nature-123"}"#.utf8))
        #expect(
            scanner.findings(request) == [
                "request header Authorization: looks like a credential (name `Authorization`)",
                "request query token: looks like a credential (name `token`)",
                "request body $.auth.password: looks like a credential (name `password`)",
                "request body $.note: looks like a credential (a JSON Web Token)",
            ])
    }

    @Test func jsonFindings_comeInKeyOrder_withNestedArraysAndBracketedKeysInTheirPaths() {
        // GIVEN a JSON body without a Content-Type, its keys out of order, secrets in nested arrays, under a key
        // that needs brackets, and in a number; and redacted, null and empty secret fields
        let response = HTTPResponse(
            status: 200,
            body: Data(
                (#"{"z":[[{"password":"p1"}],["ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"]],"x-api-key":"abc","#
                    + #""a":{"token":null,"secret":"<redacted>","api_key":"","n":[1,true,null]},"Password":1234}"#).utf8))
        // THEN each finding names its place, in the order of the keys
        #expect(
            scanner.findings(response) == [
                "response body $.Password: looks like a credential (name `Password`)",
                "response body $[\"x-api-key\"]: looks like a credential (name `x-api-key`)",
                "response body $.z[0][0].password: looks like a credential (name `password`)",
                "response body $.z[1][0]: looks like a credential (a GitHub token)",
            ])
    }

    @Test func topLevelJSONString_isScannedAsAValue() {
        let response = HTTPResponse(
            status: 200, headers: ["Content-Type": "application/json"], body: Data(#""ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789""#.utf8))
        #expect(scanner.findings(response) == ["response body $: looks like a credential (a GitHub token)"])
    }

    @Test func jsonWithADuplicateKey_isScannedAsText_soNeitherValueHidesTheOther() {
        let response = HTTPResponse(
            status: 200, headers: ["Content-Type": "application/json"],
            body: Data(#"{"note":"ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789","note":"fine"}"#.utf8))
        #expect(scanner.findings(response) == ["response body text: looks like a credential (a GitHub token)"])
    }

    @Test(arguments: [
        ("ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", "a GitHub token"),
        ("AKIAIOSFODNN7EXAMPLE", "an AWS access key"),
        ("xoxb-123456789012-abcdefghijkl", "a Slack token"),
        ("Zk9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZkdISUpLTG1ubw", "a high-entropy string"),
    ])
    func suspiciousValues_areClassified(value: String, reason: String) {
        #expect(CredentialFormat.of(value)?.description == reason)
    }

    @Test(arguments: [
        "5d41402abc4b2a76b9719d911017c592ae1f4b3d8c6e2b1a0f9e8d7c6b5a4932",  // a hex digest (ETag)
        "MDQ6VXNlcjE=", "https://avatars.githubusercontent.com/u/1?v=4", "How to decode JSON in Swift?",
        "E4C2:3A5B:1F2D3E:2A3B4C:6560A1B2", "application/vnd.github+json",
    ])
    func ordinaryValues_areNotSuspicious(value: String) {
        #expect(CredentialFormat.of(value) == nil)
    }

    @Test func requestAndTraceIDHeaders_areNotSecrets_butACredentialInOneStillIs() {
        // GIVEN a fresh answer of AWS, GitHub, Cloudflare and a traced service, with their random identifiers
        let response = HTTPResponse(
            status: 200,
            headers: HTTPHeaders(pairs: [
                ("x-amzn-RequestId", "Zk9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZkdISUpLTG1ubw"),
                ("x-amz-request-id", "Q2hlY2tzdW1YYnFBN2Y4ZzlIMGlKMWtMMm0zTjRvNXA2"),
                ("x-amz-id-2", "Uuag1LuByRx9e6j5Onimru9pO4ZVKnJ2Qz7/C1NPcfTWAtRPfTaOFg=="),
                ("X-Request-Id", "Zk9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZkdISUpLTG1ubw"),
                ("X-Correlation-Id", "Zk9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZkdISUpLTG1ubw"),
                ("traceparent", "00-Zk9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFi-Y2RlZkdISUpL-01"),
                ("X-Cloud-Trace-Context", "Zk9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZkdISUpLTG1ubw/1;o=1"),
                ("CF-RAY", "Zk9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZkdISUpLTG1ubw-AMS"),
                ("X-GitHub-Request-Id", "Zk9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZkdISUpLTG1ubw"),
                ("X-Vendor-Trace-Id", "Zk9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZkdISUpLTG1ubw"),
            ]))
        // THEN none of them is a finding
        #expect(scanner.findings(response).isEmpty)
        // AND a real token in an identifier header still is; a random value in a response header is replayed as
        // recorded (a guess decides only in a request header)
        let leaky = HTTPResponse(
            status: 200,
            headers: HTTPHeaders(pairs: [
                ("X-Session-Blob", "Zk9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZkdISUpLTG1ubw"),
                ("X-Request-Id", "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"),
            ]))
        #expect(scanner.findings(leaky) == ["response header X-Request-Id: looks like a credential (a GitHub token)"])
    }

    @Test func textBodies_reportOnlyPreciseFormats() {
        let response = HTTPResponse(
            status: 200, headers: ["Content-Type": "text/plain"],
            body: Data("your key is ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 and Supercalifragilisticexpialidocious123ABCxyz".utf8))
        #expect(scanner.findings(response) == ["response body text: looks like a credential (a GitHub token)"])
    }
}

@Suite struct RedactionEchoTests {
    @Test func secretsTheRequestCarried_areRemovedWhereTheResponseRepeatsThem() throws {
        // Given an echo service that repeats the request's credentials in its headers and bodies
        let request = RecordedRequest(
            method: "GET", target: "/get?access_token=tok-123456&page=2",
            headers: ["Authorization": "Bearer abc123secret", "Cookie": "sid=cookie-value-9"])
        let echo: CassetteJSON = [
            "headers": ["Authorization": "Bearer abc123secret", "X-Seen": "abc123secret"],
            "args": ["access_token": "tok-123456", "page": "2"], "note": "cookie was cookie-value-9",
        ]
        var interaction = Interaction(
            request: request,
            response: RecordedResponse(
                status: 200, headers: ["Content-Type": "application/json", "X-Echo-Token": "tok-123456"], body: .json(echo)))
        // When the interaction is redacted
        let count = RedactionRules.default.redact(&interaction)
        // Then no secret value is left anywhere, and other values are untouched
        guard case .response(let response) = interaction.outcome, case .json(let body, _) = response.body.form else {
            Issue.record("the response is gone"); return
        }
        let text = String(decoding: body.serialized(), as: UTF8.self)
        for secret in ["abc123secret", "tok-123456", "cookie-value-9"] {
            #expect(!text.contains(secret))
            #expect(!interaction.request.target.contains(secret))
        }
        #expect(response.headers["X-Echo-Token"] == "<redacted>")
        #expect(body["args"]?["page"] == "2")
        #expect(body["headers"]?["Authorization"] == "<redacted>")
        #expect(count.total >= 6)
        // And redacting again changes nothing
        #expect(RedactionRules.default.redact(&interaction).isEmpty)
    }

    @Test func shortSecretValues_areNotLookedForInResponses() {
        let request = RecordedRequest(method: "GET", target: "/a?token=1")
        var interaction = Interaction(request: request, response: RecordedResponse(status: 200, body: .text("page 1 of 3")))
        RedactionRules.default.redact(&interaction)
        guard case .response(let response) = interaction.outcome else { return }
        #expect(response.body == .text("page 1 of 3"))
    }
}
