@testable import MockServer
@testable import MockServerWire
import Testing

@Suite struct HTTPHeadersTests {
    @Test func lookup_ignoresCase_andReturnsFirstValue() {
        let headers: HTTPHeaders = ["Set-Cookie": "a=1", "Content-Type": "application/json", "set-cookie": "b=2"]
        #expect(headers["content-type"] == "application/json")
        #expect(headers["SET-COOKIE"] == "a=1")
        #expect(headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(headers["X-Missing"] == nil)
    }

    @Test func set_replacesEveryLineOfThatName_atTheFirstPosition() {
        var headers: HTTPHeaders = ["A": "1", "B": "2", "a": "3"]
        headers.set(name: "a", value: "9")
        #expect(headers.lines == [HTTPHeader(name: "A", value: "9"), HTTPHeader(name: "B", value: "2")])
    }

    @Test(arguments: [("Content-Type", "content-type", true), ("X-A", "X-B", false), ("abc", "ab", false), ("[", "{", false)])
    func caseInsensitiveEquality(left: String, right: String, equal: Bool) {
        let headers = HTTPHeaders(pairs: [(left, "v")])
        #expect(headers.contains(right) == equal)
    }

    @Test func requestTarget_splitsPathAndQuery() {
        let request = HTTPRequest(method: "GET", target: "/users?since=5&per_page=2")
        #expect(request.path == "/users")
        #expect(request.query == "since=5&per_page=2")
        #expect(HTTPRequest(method: "GET", target: "/x").query == nil)
    }
}
