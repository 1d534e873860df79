import Foundation
@testable import MockServer
import Testing

/// `recorder lint`, `redact` and `capture` give one verdict on secrets, with the project's rules file
/// (`Recordings/.servicereplay.json`) read by each, run as a user would.
@Suite struct SecretVerdictCommandTests {
    /// An S3 upload ID as boto3's examples show it, and one as minio makes them.
    static let uploadID = "VXBsb2FkIElEIGZvciA2aWWpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA"
    static let minioUploadID = "YTJiZDhmNGMtMWQ5Ny00YmE2LWIzMDctN2E2ZmI3ODQ5ZGQ1eDE3MDA0ODk1ODQ4NjY0MTgyMDA"
    /// A ListObjectsV2 continuation token, and the same percent-encoded as boto3 sends it in a query.
    static let continuation = "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wmW5ZLsc9Gx9YbA9Z6W8k3E0WQu4PXmEt"
    static let continuationInQuery = "1ueGcxLPRx1Tr%2FXYExHnhbYLgveDs2J%2FwmW5ZLsc9Gx9YbA9Z6W8k3E0WQu4PXmEt"
    /// Kinto's pagination `_token`: base64 of a JSON object.
    static let kintoToken = "eyJsYXN0X3JlY29yZCI6eyJpZCI6ImExIiwibGFzdF9tb2RpZmllZCI6MTU4MjgxMzYwMDAwMH19"
    /// A random value that is no secret here (a revision), flagged until the project allows it.
    static let revision = "Zk9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZkdISUpLTG1ubw"

    private static func xml(_ text: String) -> RecordedResponse {
        RecordedResponse(status: 200, headers: ["Content-Type": "application/xml"], body: .text(text))
    }

    private static func json(_ text: String) throws -> RecordedBody {
        .json(try CassetteJSON(parsing: Data(text.utf8)))
    }

    /// A multipart upload as boto3 and minio make it (upload IDs in XML bodies and queries), then a listing
    /// paged by `NextContinuationToken`, and the same names in a JSON body.
    static func multipartUpload() throws -> Cassette {
        let put = { (query: String) in
            Interaction(
                request: RecordedRequest(method: "PUT", target: "/bucket/big.bin?\(query)"),
                response: RecordedResponse(status: 200, headers: ["ETag": "\"5d41402abc4b2a76b9719d911017c592\""]))
        }
        return Cassette(
            name: "multipart",
            interactions: [
                Interaction(
                    request: RecordedRequest(method: "POST", target: "/bucket/big.bin?uploads"),
                    response: xml(
                        "<InitiateMultipartUploadResult><Bucket>bucket</Bucket><Key>big.bin</Key><UploadId>\(uploadID)</UploadId></InitiateMultipartUploadResult>"
                    )),
                put("partNumber=1&uploadId=\(uploadID)"),
                put("uploadId=\(minioUploadID)&partNumber=2"),
                Interaction(
                    request: RecordedRequest(
                        method: "POST", target: "/bucket/big.bin?uploadId=\(uploadID)", headers: ["Content-Type": "application/xml"],
                        body: .text("<CompleteMultipartUpload><Part><PartNumber>1</PartNumber></Part></CompleteMultipartUpload>")),
                    response: xml("<CompleteMultipartUploadResult><Key>big.bin</Key></CompleteMultipartUploadResult>")),
                Interaction(
                    request: RecordedRequest(method: "GET", target: "/bucket?list-type=2&max-keys=1"),
                    response: xml(
                        "<ListBucketResult><IsTruncated>true</IsTruncated><NextContinuationToken>\(continuation)</NextContinuationToken></ListBucketResult>")),
                Interaction(
                    request: RecordedRequest(method: "GET", target: "/bucket?list-type=2&max-keys=1&continuation-token=\(continuationInQuery)"),
                    response: xml("<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>")),
                Interaction(
                    request: RecordedRequest(method: "GET", target: "/uploads"),
                    response: RecordedResponse(
                        status: 200, headers: ["Content-Type": "application/json"],
                        body: try json(
                            #"{"UploadId":"\#(uploadID)","uploadId":"\#(minioUploadID)","ContinuationToken":"\#(continuation)","NextContinuationToken":"\#(continuation)"}"#
                        ))),
            ])
    }

    /// Kinto's records paged by `_token`, and other APIs' cursors.
    static func pagedRecords() throws -> Cassette {
        Cassette(
            name: "records",
            interactions: [
                Interaction(
                    request: RecordedRequest(method: "GET", target: "/v1/buckets/b/collections/c/records?_limit=1&_token=\(kintoToken)"),
                    response: RecordedResponse(
                        status: 200, headers: ["Content-Type": "application/json"],
                        body: try json(
                            #"{"data":[{"id":"a1"}],"_token":"\#(kintoToken)","cursor":"\#(continuation)","next_page_token":"\#(continuation)"}"#)))
            ])
    }

    @Test func uploadIDsAndCursors_areNoSecrets_lintIsClean_andRedactSaysClean() async throws {
        // Given an S3 multipart upload and pages of records, as captured
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write(String(decoding: try Self.multipartUpload().encoded(), as: UTF8.self), to: "Recordings/s3/multipart.json")
        try workspace.write(String(decoding: try Self.pagedRecords().encoded(), as: UTF8.self), to: "Recordings/kinto/records.json")
        let before = [try workspace.contents("Recordings/s3/multipart.json"), try workspace.contents("Recordings/kinto/records.json")]
        // When linting them
        let lint = try await workspace.run(["lint"])
        // Then nothing is a finding
        #expect(lint.stdout == "2 cassettes, 8 interactions, 0 findings\n")
        #expect(lint.status == 0)
        // And redact agrees: both are clean and keep every byte
        let redact = try await workspace.run(["redact", "Recordings"])
        #expect(redact.stdout == "Recordings/kinto/records.json: already clean\nRecordings/s3/multipart.json: already clean\n")
        #expect(redact.status == 0)
        #expect([try workspace.contents("Recordings/s3/multipart.json"), try workspace.contents("Recordings/kinto/records.json")] == before)
    }

    static let githubToken = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
    static let otherGitHubToken = "ghp_ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210"
    static let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJlLWJ5dGVz"

    /// A log-in exchange leaking credentials of every kind, beside an upload ID and a cursor.
    static func leakyLogin() throws -> Cassette {
        Cassette(
            name: "login",
            interactions: [
                Interaction(
                    request: RecordedRequest(
                        method: "POST", target: "/oauth/token?access_token=at-0001&uploadId=\(uploadID)",
                        headers: HTTPHeaders(pairs: [
                            ("Authorization", "Bearer \(githubToken)"), ("X-Amz-Security-Token", "FwoGZXIvYXdzEJr"),
                            ("Content-Type", "application/json"),
                        ]),
                        body: try json(#"{"api_key":"k-0002","password":"hunter2","session_token":"st-0003"}"#)),
                    response: RecordedResponse(
                        status: 200, headers: ["Content-Type": "application/json"],
                        body: try json(
                            #"{"access_token":"at-0004","cursor":"\#(continuation)","id_token":"\#(jwt)","note":"\#(otherGitHubToken)","refresh_token":"rt-0005","secret":"s-0006","token":"t-0007"}"#
                        )))
            ])
    }

    @Test func aRealSecret_isFlaggedNamingItsRule_andRedactRemovesExactlyWhatLintFlags() async throws {
        // Given a cassette leaking credentials by name and by format
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write(String(decoding: try Self.leakyLogin().encoded(), as: UTF8.self), to: "Recordings/login.json")
        // When linting it
        let lint = try await workspace.run(["lint"])
        // Then each credential is one line naming the rule that flagged it and how to allow it
        let place = "Recordings/login.json: interaction 0:"
        let allow = { (name: String) in "if it is not, add \"\(name)\" to allow in Recordings/.servicereplay.json" }
        let byName = { (name: String) in "looks like a credential (name `\(name)`); \(allow(name))" }
        #expect(
            lint.stdout == """
                \(place) request header Authorization: \(byName("Authorization"))
                \(place) request header X-Amz-Security-Token: \(byName("X-Amz-Security-Token"))
                \(place) request query access_token: \(byName("access_token"))
                \(place) request body $.api_key: \(byName("api_key"))
                \(place) request body $.password: \(byName("password"))
                \(place) request body $.session_token: \(byName("session_token"))
                \(place) response body $.access_token: \(byName("access_token"))
                \(place) response body $.id_token: \(byName("id_token"))
                \(place) response body $.note: looks like a credential (a GitHub token); \(allow("note"))
                \(place) response body $.refresh_token: \(byName("refresh_token"))
                \(place) response body $.secret: \(byName("secret"))
                \(place) response body $.token: \(byName("token"))
                1 cassette, 1 interaction, 12 findings

                """)
        #expect(lint.status == 1)
        // When redacting it
        let redact = try await workspace.run(["redact", "Recordings/login.json"])
        // Then as many values are replaced as lint flagged, the upload ID and the cursor stay, and lint is content
        #expect(redact.stdout == "Recordings/login.json: redacted 2 headers, 1 query parameter, 9 body fields\n")
        let text = String(decoding: try workspace.contents("Recordings/login.json"), as: UTF8.self)
        for secret in [
            Self.githubToken, Self.otherGitHubToken, Self.jwt, "FwoGZXIvYXdzEJr", "at-0001", "k-0002", "hunter2", "st-0003", "at-0004", "rt-0005", "s-0006",
            "t-0007",
        ] {
            #expect(!text.contains(secret), "\(secret)")
        }
        #expect(text.contains(Self.uploadID) && text.contains(Self.continuation))
        let clean = try await workspace.run(["lint"])
        #expect(clean.stdout == "1 cassette, 1 interaction, 0 findings\n")
        #expect(clean.status == 0)
        #expect(try await workspace.run(["redact", "Recordings/login.json"]).stdout == "Recordings/login.json: already clean\n")
    }

    /// `GET /pins?revision=...` with the revision in a request header too (a random value there looks like a
    /// credential), answered with the revision (no secret) and a PIN (a secret no built-in rule knows).
    static func pins() throws -> Cassette {
        Cassette(
            name: "pins",
            interactions: [
                Interaction(
                    request: RecordedRequest(method: "GET", target: "/pins?revision=\(revision)", headers: ["X-Revision": revision]),
                    response: RecordedResponse(
                        status: 200, headers: ["Content-Type": "application/json"],
                        body: try json(#"{"revision":"\#(revision)","owner":"ann","pin":"1234"}"#)))
            ])
    }

    @Test func rulesFile_allowsAFinding_andMakesRedactAndCaptureRedactAnExtraField() async throws {
        // Given a cassette with a random revision and a PIN
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write(String(decoding: try Self.pins().encoded(), as: UTF8.self), to: "Recordings/pins.json")
        // When linting it without rules of the project's own
        let flagged = try await workspace.run(["lint"])
        // Then the revision is flagged in the request header (a guess decides nowhere else) and where the
        // response repeats it, and the line says how to allow it
        let hint = "looks like a credential (a high-entropy string); if it is not, add \"X-Revision\" to allow in Recordings/.servicereplay.json"
        #expect(
            flagged.stdout == """
                Recordings/pins.json: interaction 0: request header X-Revision: \(hint)
                Recordings/pins.json: interaction 0: response body $.revision: repeats a secret of the request (request header X-Revision)
                1 cassette, 1 interaction, 2 findings

                """)
        #expect(flagged.status == 1)
        // When the project allows the revision and names the PIN a secret
        try workspace.write(#"{"allow": ["X-Revision"], "redact": ["pin"]}"#, to: "Recordings/.servicereplay.json")
        let listed = try await workspace.run(["lint"])
        // Then the revision is no finding, and the PIN is one, naming the file that lists it
        #expect(
            listed.stdout == """
                Recordings/pins.json: interaction 0: response body $.pin: listed as a secret (name `pin`); if it is not, remove "pin" from redact in Recordings/.servicereplay.json
                1 cassette, 1 interaction, 1 finding

                """)
        #expect(listed.status == 1)
        // And redact replaces the PIN alone, after which lint is content
        #expect(try await workspace.run(["redact", "Recordings"]).stdout == "Recordings/pins.json: redacted 1 body field\n")
        let redacted = try Cassette.load(from: workspace.url("Recordings/pins.json"))
        #expect(redacted.interactions[0].response?.body == (try Self.json(#"{"revision":"\#(Self.revision)","owner":"ann","pin":"<redacted>"}"#)))
        #expect(redacted.interactions[0].request.target == "/pins?revision=\(Self.revision)")
        #expect(try await workspace.run(["lint"]).status == 0)
        // When the same exchange is captured afresh into the same folder
        try await withMockServer(cassettes: [try Self.pins()], configuration: .init(faults: .none, strict: true)) { upstream in
            let capture = try RunningRecorder(
                ["capture", "--upstream", upstream.baseURL!.absoluteString, "--out", "Recordings/captured/pins.json"], in: workspace.folder)
            let proxy = try await capture.address(after: "Listening on")
            let http = LoopbackHTTP()
            defer { http.close() }
            let answer = try await http.send("GET", "/pins?revision=\(Self.revision)", to: proxy, headers: [("X-Revision", Self.revision)])
            #expect(answer.status == 200)
            #expect(String(decoding: answer.body, as: UTF8.self).contains(#""pin":"1234""#))
            #expect(try await capture.stop(with: SIGTERM).status == 0)
        }
        // Then the recording redacts the PIN too (never the wire), and keeps the revision
        let captured = try Cassette.load(from: workspace.url("Recordings/captured/pins.json"))
        #expect(captured.interactions.count == 1)
        #expect(captured.interactions[0].response?.body == redacted.interactions[0].response?.body)
        #expect(try await workspace.run(["lint"]).stdout == "2 cassettes, 2 interactions, 0 findings\n")
    }

    @Test(arguments: [
        (#"{"allow": "UploadId"}"#, "allow: expected an array, found a string"),
        (#"{"allow": ["UploadId"], "redakt": ["pin"]}"#, "redakt: unknown field; expected one of allow, redact"),
        (#"{"allow": [1]}"#, "allow[0]: expected a string, found 1"),
        (#"{"redact": [""]}"#, "redact[0]: an empty entry names nothing; remove it"),
        (#"{"allow": ["PIN"], "redact": ["pin"]}"#, "redact[0]: \"pin\" is in allow too; a name is either a secret or not"),
        (#"["UploadId"]"#, "expected an object, found an array"),
        (#"{"allow": ["UploadId",]}"#, "invalid JSON at line 1, column 23: unexpected ']', expected a value"),
    ])
    func malformedRulesFile_isOneSentence_andEveryCommandStops(contents: String, reason: String) async throws {
        // Given a clean cassette whose rules file is malformed
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write(String(decoding: try Self.pins().encoded(), as: UTF8.self), to: "Recordings/pins.json")
        try workspace.write(contents, to: "Recordings/.servicereplay.json")
        let cassette = try workspace.contents("Recordings/pins.json")
        let sentence = "recorder: Recordings/.servicereplay.json: \(reason)\n"
        // When linting, redacting and capturing beside it
        let commands = [
            ["lint"], ["redact", "Recordings"], ["redact", "Recordings/pins.json"],
            ["capture", "--upstream", "http://127.0.0.1:9", "--out", "Recordings/new.json"],
        ]
        for arguments in commands {
            let run = try await workspace.run(arguments)
            // Then each says what is wrong in one sentence, exits 1 and leaves every file as it was
            #expect(run.stderr == sentence, "\(arguments)")
            #expect(run.stdout == "", "\(arguments)")
            #expect(run.status == 1, "\(arguments)")
        }
        #expect(try workspace.contents("Recordings/pins.json") == cassette)
        #expect(!workspace.exists("Recordings/new.json"))
    }
}
