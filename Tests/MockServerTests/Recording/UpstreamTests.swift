import Foundation
@testable import MockServer
import Testing

@Suite struct UpstreamTests {
    @Test(arguments: [
        ("https://api.github.com", "https://api.github.com", "api.github.com"),
        ("https://api.nice.example/v1/", "https://api.nice.example/v1", "api.nice.example"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080", "127.0.0.1:8080"),
        ("HTTP://[::1]:8080/", "HTTP://[::1]:8080", "[::1]:8080"),
    ])
    func validBaseURL_isKeptWithoutTrailingSlash(text: String, url: String, host: String) throws {
        let upstream = try Upstream(text)
        #expect(upstream.description == url)
        #expect(upstream.hostHeader == host)
    }

    @Test(arguments: [
        ("ftp://example.com", "'ftp://example.com' is not an http or https URL"),
        ("api.github.com", "'api.github.com' is not an http or https URL"),
        ("https://", "'https://' has no host"),
        (
            "https://user:secret@api.example.com",
            "'https://user:secret@api.example.com' holds credentials; send them in a header instead, where they are redacted"
        ),
        ("https://api.example.com/?page=1", "'https://api.example.com/?page=1' has a query; give the base URL without one"),
        ("https://api.example.com/#top", "'https://api.example.com/#top' has a fragment; give the base URL without one"),
    ])
    func invalidUpstream_isRefusedWithOneSentence(text: String, message: String) {
        let error = #expect(throws: MockServerError.self) { try Upstream(text) }
        #expect(error?.code == .invalidUpstream)
        #expect(error?.description == message)
    }
}
