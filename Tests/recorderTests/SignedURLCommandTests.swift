import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import Testing

/// `recorder lint`, `redact` and `replay` on presigned URLs outside the request's own query, run as a user would.
@Suite struct SignedURLCommandTests {
    static let awsSignature = "0f3a5c7e9b1d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a"
    static let awsCredential = "AKIAIOSFODNN7EXAMPLE%2F20261126%2Fus-east-1%2Fs3%2Faws4_request"
    static let azureSignature = "Zm9vYmFyYmF6cXV4Q29ycA%3D%3D"
    static let googleSignature = "5e1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"
    static let cloudFrontSignature = "Q2xvdWRGcm9udA~sig-nature_1"

    /// Every value `recorder redact` is to replace, each written once in the file.
    static let secrets = [awsSignature, awsCredential, azureSignature, googleSignature, cloudFrontSignature, "abc+kl/mn=", "abc%2Bkl%2Fmn%3D"]

    /// A cassette with a presigned URL in a `Location` header, in a JSON request body, in a JSON text body with
    /// escaped slashes, in a stream event, and an Azure `sig` from the query echoed percent-encoded; and
    /// ordinary URLs and prose that must stay as they are.
    static func signedCassette() throws -> Cassette {
        let location =
            "https://objects.githubusercontent.com/github-production-release-asset/1/2?X-Amz-Algorithm=AWS4-HMAC-SHA256"
            + "&X-Amz-Credential=\(awsCredential)&X-Amz-Date=20261126T000000Z&X-Amz-Expires=300&X-Amz-Signature=\(awsSignature)"
            + "&X-Amz-SignedHeaders=host&actor_id=0"
        let redirect = Interaction(
            request: RecordedRequest(method: "GET", target: "/octo/app/releases/download/v1/app.zip"),
            response: RecordedResponse(
                status: 302,
                headers: HTTPHeaders(pairs: [
                    ("Location", location), ("Link", "<https://api.github.com/user/repos?page=2&per_page=50>; rel=\"next\""),
                ])))
        let hook = try CassetteJSON(
            parsing: Data(
                #"{"callback":"https://d1.cloudfront.net/v.mp4?Expires=1800000000&Signature=\#(cloudFrontSignature)&Key-Pair-Id=K2JCJMDEHXQW5F","n":1.50}"#.utf8
            ))
        let blob = Interaction(
            request: RecordedRequest(method: "POST", target: "/hooks", headers: ["Content-Type": "application/json"], body: .json(hook)),
            response: RecordedResponse(
                status: 201, headers: ["Content-Type": "application/json"],
                body: .text(
                    #"{"url": "https:\/\/acct.blob.core.windows.net\/c\/b.txt?sv=2022-11-02\u0026se=2026-12-01\u0026sig=\#(azureSignature)", "next": "https:\/\/api.example\/items?page=2"}"#
                )))
        let event = #"{"download":"https:\/\/storage.googleapis.com\/b\/o?X-Goog-Algorithm=GOOG4-RSA-SHA256\u0026X-Goog-Signature=\#(googleSignature)"}"#
        let stream = Interaction(
            request: RecordedRequest(method: "GET", target: "/events"),
            response: RecordedResponse(
                status: 200, headers: ["Content-Type": "text/event-stream"],
                body: .stream(
                    RecordedStream([
                        RecordedStream.Part(offsetMs: 0, .event(ServerSentEventFields(event: "asset", data: event))),
                        RecordedStream.Part(
                            offsetMs: 40, .event(ServerSentEventFields(data: "the sig field and signature= are explained at https://docs.example/sas?lang=en"))),
                    ]))))
        let echo = Interaction(
            request: RecordedRequest(method: "GET", target: "/c/b.txt?sv=2022-11-02&sp=r&sig=abc+kl/mn="),
            response: RecordedResponse(
                status: 403, headers: ["Content-Type": "text/plain"],
                body: .text("Signature abc%2Bkl%2Fmn%3D did not match the string to sign")))
        return Cassette(name: "signed", interactions: [redirect, blob, stream, echo])
    }

    @Test func lintFindsEverySignedURL_redactRemovesOnlyTheirValues_andASecondRunChangesNothing() async throws {
        // Given a cassette holding presigned URLs outside its requests' queries
        let workspace = try Workspace()
        defer { workspace.remove() }
        let original = String(decoding: try Self.signedCassette().encoded(), as: UTF8.self)
        for secret in Self.secrets { #expect(original.components(separatedBy: secret).count == 2, "\(secret)") }
        try workspace.write(original, to: "signed.json")
        // When linting it
        let lint = try await workspace.run(["lint", "signed.json"])
        // Then each signature is a finding, and so is the one the 403 repeats, and nothing else is
        let allow = { (name: String) in "; if it is not, add \"\(name)\" to allow in .servicereplay.json" }
        #expect(
            lint.stdout == """
                signed.json: interaction 0: response header Location: looks like a credential (URL parameter `X-Amz-Credential`)\(allow("X-Amz-Credential"))
                signed.json: interaction 0: response header Location: looks like a credential (URL parameter `X-Amz-Signature`)\(allow("X-Amz-Signature"))
                signed.json: interaction 1: request body $.callback: looks like a credential (URL parameter `Signature`)\(allow("Signature"))
                signed.json: interaction 1: response body $.url: looks like a credential (URL parameter `sig`)\(allow("sig"))
                signed.json: interaction 2: response body part 0 $.download: looks like a credential (URL parameter `X-Goog-Signature`)\(allow("X-Goog-Signature"))
                signed.json: interaction 3: request query sig: looks like a credential (name `sig`)\(allow("sig"))
                signed.json: interaction 3: response body text: repeats a secret of the request (request query sig)
                1 cassette, 4 interactions, 7 findings

                """)
        #expect(lint.status == 1)
        // When redacting it
        let redact = try await workspace.run(["redact", "signed.json"])
        // Then the file differs from the original only where a secret was
        #expect(redact.stdout == "signed.json: redacted 1 header, 1 query parameter, 4 body fields\n")
        #expect(redact.status == 0)
        // (inside URLs in the URL-legal spelling; the echo in prose as it is)
        let expected = Self.secrets.reduce(original) {
            $0.replacingOccurrences(of: $1, with: $1 == "abc%2Bkl%2Fmn%3D" ? Cassette.redactionPlaceholder : Cassette.urlRedactionPlaceholder)
        }
        let redacted = try workspace.contents("signed.json")
        #expect(String(decoding: redacted, as: UTF8.self) == expected)
        // And it lints clean, and a second run changes no byte
        let clean = try await workspace.run(["lint", "signed.json"])
        #expect(clean.stdout == "1 cassette, 4 interactions, 0 findings\n")
        #expect(clean.status == 0)
        let second = try await workspace.run(["redact", "signed.json"])
        #expect(second.stdout == "signed.json: already clean\n")
        #expect(try workspace.contents("signed.json") == redacted)
    }

    private func get(_ url: URL) async throws -> Int {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let (_, response) = try await session.data(from: url)
        return try #require(response as? HTTPURLResponse).statusCode
    }

    @Test func replay_printsEachRequestsTarget_withItsSignatureRedacted() async throws {
        // Given a cassette with a presigned download, its signature redacted as recording does
        let workspace = try Workspace()
        defer { workspace.remove() }
        let target = "/bucket/key?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261126T000000Z&X-Amz-Expires=300&X-Amz-Signature=%3Credacted%3E"
        let cassette = Cassette(
            name: "presigned",
            interactions: [
                Interaction(request: RecordedRequest(method: "GET", target: target), response: RecordedResponse(status: 200, body: .text("file")))
            ])
        try workspace.write(String(decoding: cassette.encoded(), as: UTF8.self), to: "presigned.json")
        let replay = try RunningRecorder(["replay", workspace.url("presigned.json").path])
        let base = try await replay.address(after: "Replaying 1 cassette")
        // When a client fetches the URL presigned afresh
        let status = try await get(URL(string: target.replacingOccurrences(of: Cassette.urlRedactionPlaceholder, with: Self.awsSignature), relativeTo: base)!)
        let run = try await replay.stop()
        // Then it is answered, and the line printed for it holds no signature
        #expect(status == 200)
        #expect(run.stdout.contains("GET \(target) → 200 presigned interaction 0\n"))
        #expect(!run.stdout.contains(Self.awsSignature))
    }
}
