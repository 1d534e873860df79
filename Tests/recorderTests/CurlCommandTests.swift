import Foundation
@testable import MockServer
@testable import recorder
import Testing

@Suite struct CurlCommandTests {
    static let upstream = "https://api.nice.example/v1/"

    @Test(arguments: [
        (
            RecordedRequest(
                method: "GET", target: "/friends?token=<redacted>&user_id=42",
                headers: HTTPHeaders(pairs: [("Host", "127.0.0.1:8080"), ("Accept", "application/json"), ("Accept-Encoding", "gzip, br"), ("X-Empty", "")])),
            """
            curl 'https://api.nice.example/v1/friends?token=%3Credacted%3E&user_id=42' \\
              --header 'Accept: application/json' \\
              --header 'X-Empty;' \\
              --compressed
            """
        ),
        (
            RecordedRequest(
                method: "POST", target: "/notes",
                headers: HTTPHeaders(pairs: [("Content-Type", "application/json"), ("Content-Length", "99"), ("Authorization", "<redacted>")]),
                body: .json(["note": "it's $HOME"])),
            """
            curl 'https://api.nice.example/v1/notes' \\
              --header 'Content-Type: application/json' \\
              --header 'Authorization: <redacted>' \\
              --data-raw '{"note":"it'\\''s $HOME"}'
            """
        ),
        (
            RecordedRequest(method: "PUT", target: "/a b", headers: ["Content-Type": "text/plain"], body: .text("line 1\nline 2")),
            """
            curl 'https://api.nice.example/v1/a b' \\
              --request PUT \\
              --header 'Content-Type: text/plain' \\
              --data-raw 'line 1
            line 2'
            """
        ),
        (RecordedRequest(method: "HEAD", target: "/"), "curl 'https://api.nice.example/v1/' \\\n  --head"),
        (RecordedRequest(method: "DELETE", target: "/photos/p_1"), "curl 'https://api.nice.example/v1/photos/p_1' \\\n  --request DELETE"),
        (
            RecordedRequest(method: "GET", target: "/search?filter[tag]={swift}"),
            "curl 'https://api.nice.example/v1/search?filter[tag]={swift}' \\\n  --globoff"
        ),
        (
            RecordedRequest(method: "GET", target: "/search", body: .text("q=1")),
            "curl 'https://api.nice.example/v1/search' \\\n  --request GET \\\n  --data-raw 'q=1'"
        ),
        (RecordedRequest(method: "M-SEARCH*", target: "/"), "curl 'https://api.nice.example/v1/' \\\n  --request 'M-SEARCH*'"),
    ])
    func requests_becomeCurlCommands(request: RecordedRequest, expected: String) {
        #expect(CurlCommand.render(request, upstream: Self.upstream) == expected)
    }

    @Test(arguments: [
        RecordedBody.binary(Data([0x00, 0x01, 0xFF, 0x27, 0x0A])),
        .text("bell \u{7}"),
    ])
    func untypeableBodies_areWrittenFromBase64_thenSentFromAFile(body: RecordedBody) throws {
        // Given a body a shell word cannot carry
        let request = RecordedRequest(method: "POST", target: "/upload", headers: ["Content-Type": "application/octet-stream"], body: body)
        // When rendered
        let text = CurlCommand.render(request, upstream: Self.upstream)
        // Then a here-document writes the bytes and curl sends the file, never standard input
        let base64 = body.data.base64EncodedString()
        #expect(
            text == """
                # The request body is \(body.data.count) bytes of binary data (application/octet-stream), kept here as base64;
                # this writes it to body.bin for curl to send.
                base64 -d > body.bin <<'END_OF_BODY'
                \(base64)
                END_OF_BODY
                curl 'https://api.nice.example/v1/upload' \\
                  --header 'Content-Type: application/octet-stream' \\
                  --data-binary @body.bin
                """)
        #expect(!text.contains("@-"))
        #expect(!text.contains("$'"))
    }

    @Test func longBinaryBodies_areWrappedAt76Columns() {
        let request = RecordedRequest(method: "POST", target: "/", body: .binary(Data(repeating: 0xAB, count: 200)))
        let lines = CurlCommand.render(request, upstream: Self.upstream).split(separator: "\n")
        let encoded = lines.drop { !$0.hasPrefix("base64 -d") }.dropFirst().prefix { $0 != "END_OF_BODY" }
        #expect(encoded.map(\.count) == [76, 76, 76, 40])
        #expect(Data(base64Encoded: encoded.joined()) == Data(repeating: 0xAB, count: 200))
    }

    @Test(arguments: [("plain", "'plain'"), ("it's", #"'it'\''s'"#), ("", "''"), ("$(rm -rf /)", "'$(rm -rf /)'")])
    func shellQuoting_keepsEverythingLiteral(text: String, quoted: String) {
        #expect(ShellQuote.quote(text) == quoted)
    }
}
