@testable import MockServer
import Testing

/// ``HARURL``: how a HAR entry's URL splits into the cassette's upstream and the request's target.
@Suite struct HARURLTests {
    struct Parsed: Sendable, CustomTestStringConvertible {
        let url: String
        let origin: String
        let port: Int?
        let target: String
        var testDescription: String { url }
    }

    @Test(arguments: [
        // scheme and host are lower-cased; the fragment is dropped; path and query stay as written
        Parsed(url: "HTTPS://API.Example.com/Users?q=A|B#top", origin: "https://api.example.com", port: nil, target: "/Users?q=A|B"),
        // a scheme's default port is left out, the other scheme's default is not
        Parsed(url: "http://h:80/x", origin: "http://h", port: nil, target: "/x"),
        Parsed(url: "https://h:443/x", origin: "https://h", port: nil, target: "/x"),
        Parsed(url: "https://h:80/x", origin: "https://h:80", port: 80, target: "/x"),
        Parsed(url: "http://h:443/x", origin: "http://h:443", port: 443, target: "/x"),
        // ports from 1 to 65,535, and an empty one (the default)
        Parsed(url: "http://h:1/", origin: "http://h:1", port: 1, target: "/"),
        Parsed(url: "http://h:65535/", origin: "http://h:65535", port: 65_535, target: "/"),
        Parsed(url: "http://h:/x", origin: "http://h", port: nil, target: "/x"),
        // user information is dropped, up to its last `@`
        Parsed(url: "http://user:pa@ss@h:8080/x", origin: "http://h:8080", port: 8080, target: "/x"),
        // IPv6 literals keep their brackets, with or without a port
        Parsed(url: "http://[::1]:8080/x", origin: "http://[::1]:8080", port: 8080, target: "/x"),
        Parsed(url: "http://[::1]/x", origin: "http://[::1]", port: nil, target: "/x"),
        // no path: the target starts with `/` all the same
        Parsed(url: "http://h?q=1", origin: "http://h", port: nil, target: "/?q=1"),
        Parsed(url: "http://h#frag", origin: "http://h", port: nil, target: "/"),
        Parsed(url: "http://h", origin: "http://h", port: nil, target: "/"),
    ])
    func absoluteURL_splitsIntoOriginAndTarget(_ expected: Parsed) throws {
        let url = try #require(HARURL(expected.url))
        #expect(url.origin == expected.origin)
        #expect(url.port == expected.port)
        #expect(url.target == expected.target)
    }

    @Test func partsAreKeptSeparately() throws {
        let url = try #require(HARURL("HTTPS://Shop.Example.com:8443/a"))
        #expect(url.scheme == "https")
        #expect(url.host == "shop.example.com")
        #expect(url.port == 8443)
    }

    @Test(arguments: [
        "data:image/png;base64,AAAA", "ftp://h/x", "//h/x", "h/x", "httpx://h/x",
        "http:///x", "http://:8080/x", "http://user@/x",
        "http://h:0/", "http://h:65536/", "http://h:-1/", "http://h:80a/", "http://h:８０/",
        "http://[::1/x", "http://[::1]8080/x",
    ])
    func anythingElse_isNotAHARURL(_ text: String) {
        #expect(HARURL(text) == nil)
    }

    @Test(arguments: [
        ("api.example.com", true), ("API.example.com", true), ("api.example.com:443", true),
        ("https://api.example.com", true), ("https://API.example.com/", true),
        ("api.example.com:80", false), ("http://api.example.com", false), ("example.com", false),
        ("https://api.example.com:443", false),
    ])
    func hostChoice_onTheDefaultPort(wanted: String, matches: Bool) throws {
        let url = try #require(HARURL("https://api.example.com/users"))
        #expect(url.isOnHost(wanted) == matches)
    }

    @Test(arguments: [
        ("h", true), ("h:8080", true), ("http://h:8080", true), ("h:80", false), ("http://h", false),
    ])
    func hostChoice_onAnotherPort(wanted: String, matches: Bool) throws {
        let url = try #require(HARURL("http://h:8080/x"))
        #expect(url.isOnHost(wanted) == matches)
    }

    @Test func hostChoice_onPlainHTTP_takesPort80() throws {
        let url = try #require(HARURL("http://h/x"))
        #expect(url.isOnHost("h:80"))
        #expect(!url.isOnHost("h:443"))
    }
}
