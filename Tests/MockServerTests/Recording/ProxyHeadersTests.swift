@testable import MockServer
import Testing

@Suite struct ProxyHeadersTests {
    @Test(arguments: [
        ("a=1", ["a=1"]),
        ("a=1; Path=/, b=2", ["a=1; Path=/", "b=2"]),
        ("a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; HttpOnly, b=2; Path=/", ["a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; HttpOnly", "b=2; Path=/"]),
        ("a=x,y", ["a=x,y"]),
        ("a=1,b=2", ["a=1", "b=2"]),
    ])
    func joinedSetCookie_isSplitAtCookieBoundaries_only(joined: String, cookies: [String]) {
        #expect(ProxyHeaders.splitSetCookie(joined) == cookies)
    }

    @Test func responseHeaders_keepTheirOrder_withoutHopByHopOrEncodingFields_andTheLengthOfTheBodyPassedOn() {
        let fields: [(name: String, value: String)] = [
            ("X-Trace", "1"), ("Content-Encoding", "gzip"), ("Content-Length", "31"), ("Transfer-Encoding", "chunked"),
            ("Connection", "keep-alive, X-Private"), ("X-Private", "p"), ("Keep-Alive", "timeout=5"), ("content-type", "application/json"),
            ("X-Trace", "2"),
        ]
        let headers = ProxyHeaders.response(fields, bodyCount: 57)
        #expect(headers.lines.map { "\($0.name): \($0.value)" } == ["X-Trace: 1", "Content-Length: 57", "content-type: application/json", "X-Trace: 2"])
        // A body left coded keeps the field that says how
        #expect(ProxyHeaders.response(fields, bodyCount: 31, decoded: false)["Content-Encoding"] == "gzip")
    }

    @Test func urlSessionFields_areSortedByName_withJoinedCookiesSplit() {
        let fields = ProxyHeaders.urlSessionFields(["X-Trace": "1", "content-type": "text/plain", "Set-Cookie": "a=1; Path=/, b=2", "Age": "3"])
        #expect(fields.map { "\($0.name): \($0.value)" } == ["Age: 3", "content-type: text/plain", "Set-Cookie: a=1; Path=/", "Set-Cookie: b=2", "X-Trace: 1"])
    }

    @Test func contentLength_keepsItsPlace_withTheSizePassedOn_exceptForAStreamOrAnEmptyEncodedBody() {
        func lines(_ fields: [(name: String, value: String)], _ bodyCount: Int?) -> [String] {
            ProxyHeaders.response(fields, bodyCount: bodyCount).lines.map { "\($0.name): \($0.value)" }
        }
        let upstream: [(name: String, value: String)] = [("Date", "d"), ("Content-Length", "12"), ("Content-Type", "text/plain")]
        #expect(lines(upstream, 12) == ["Date: d", "Content-Length: 12", "Content-Type: text/plain"])
        #expect(lines(upstream, 40) == ["Date: d", "Content-Length: 40", "Content-Type: text/plain"])
        // An empty body (a HEAD answer) keeps the size of the resource; a streamed one has none
        #expect(lines(upstream, 0) == ["Date: d", "Content-Length: 12", "Content-Type: text/plain"])
        #expect(lines(upstream, nil) == ["Date: d", "Content-Type: text/plain"])
        #expect(lines([("Content-Length", "12"), ("Content-Encoding", "gzip")], 0) == [])
        // Repeats of one value are one field; no field is added where the upstream sent none
        #expect(lines([("Content-Length", "3"), ("X", "1"), ("content-length", "3")], 3) == ["Content-Length: 3", "X: 1"])
        #expect(lines([("X", "1")], 3) == ["X: 1"])
    }

    @Test func recordedRequestHeaders_nameTheUpstreamHost_andForwardedOnesLeaveFramingToURLSession() throws {
        let upstream = try Upstream("https://api.example.com:8443/v1")
        let received: HTTPHeaders = HTTPHeaders(pairs: [
            ("Host", "127.0.0.1:5000"), ("Accept", "*/*"), ("Accept-Encoding", "gzip"), ("Content-Length", "2"),
            ("Expect", "100-continue"), ("Proxy-Connection", "keep-alive"), ("TE", "trailers"),
        ])
        let recorded = ProxyHeaders.recorded(received, upstream: upstream)
        #expect(recorded.lines.map(\.name) == ["Host", "Accept", "Accept-Encoding", "Content-Length"])
        #expect(recorded["Host"] == "api.example.com:8443")
        #expect(ProxyHeaders.forwarded(recorded).lines.map(\.name) == ["Accept"])
    }
}
