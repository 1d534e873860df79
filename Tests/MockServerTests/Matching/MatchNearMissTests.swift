import Foundation
@testable import MockServer
import Testing

/// Unmatched requests name the closest recording and every difference, word for word.
@Suite struct MatchNearMissTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let interactions: [Interaction]
        var rules = MatchRules()
        let requests: [HTTPRequest]
        let report: String
        var testDescription: String { name }
    }

    static func get(_ target: String, headers: HTTPHeaders = [:]) -> HTTPRequest {
        HTTPRequest(method: "GET", target: target, headers: headers)
    }

    static func json(_ method: String, _ target: String, _ body: String) -> HTTPRequest {
        HTTPRequest(method: method, target: target, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }

    static func form(_ target: String, _ body: String) -> HTTPRequest {
        HTTPRequest(method: "POST", target: target, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(body.utf8))
    }

    static func upload(filename: String, type: String) -> HTTPRequest {
        let body = "--b\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(filename)\"\r\nContent-Type: \(type)\r\n\r\nJPEG\r\n--b--\r\n"
        return HTTPRequest(method: "POST", target: "/photos", headers: ["Content-Type": "multipart/form-data; boundary=b"], body: Data(body.utf8))
    }

    static func recorded(_ request: HTTPRequest) -> Interaction {
        Interaction(request: RecordedRequest(request), response: RecordedResponse(status: 200))
    }

    static let cases: [Case] = [
        Case(
            name: "a different query value",
            interactions: [.stub("GET", "/users?since=0&per_page=2")], requests: [get("/users?since=1&per_page=2")],
            report: """
                No recorded interaction matches GET /users?since=1&per_page=2.
                Closest: c interaction 0 (GET /users?since=0&per_page=2), which differs in:
                  query since: recorded "0", received "1"
                """),
        Case(
            name: "missing and extra query parameters",
            interactions: [.stub("GET", "/users?since=0&per_page=2")], requests: [get("/users?debug=true&since=0")],
            report: """
                No recorded interaction matches GET /users?debug=true&since=0.
                Closest: c interaction 0 (GET /users?since=0&per_page=2), which differs in:
                  query debug: recorded nothing, received "true"
                  query per_page: recorded "2", received nothing
                """),
        Case(
            name: "a different method",
            interactions: [recorded(form("/login", "u=ann"))], requests: [get("/login")],
            report: """
                No recorded interaction matches GET /login.
                Closest: c interaction 0 (POST /login), which differs in:
                  method: recorded POST, received GET
                  body: recorded form fields u=ann, received nothing
                """),
        Case(
            name: "a different path",
            interactions: [.stub("GET", "/users/octocat"), .stub("GET", "/repos/x/y")], requests: [get("/users/octocot")],
            report: """
                No recorded interaction matches GET /users/octocot.
                Closest: c interaction 0 (GET /users/octocat), which differs in:
                  path: recorded /users/octocat, received /users/octocot
                """),
        Case(
            name: "JSON paths with both values",
            interactions: [recorded(json("POST", "/users", #"{"user": {"id": 42, "name": "Ann"}, "tags": ["a"], "token": "<redacted>"}"#))],
            requests: [json("POST", "/users", #"{"user": {"id": 43}, "tags": ["a", "b"], "token": "xyz"}"#)],
            report: """
                No recorded interaction matches POST /users.
                Closest: c interaction 0 (POST /users), which differs in:
                  $.tags[1]: recorded nothing, received "b"
                  $.user.id: recorded 42, received 43
                  $.user.name: recorded "Ann", received nothing
                """),
        Case(
            name: "a placeholder inside a JSON string: no difference where the text around it fits",
            interactions: [
                recorded(json("POST", "/hooks", #"{"callback": "https://x/v?Signature=<redacted>&K=2", "n": 1, "u": "https://y/?sig=<redacted>"}"#))
            ],
            requests: [json("POST", "/hooks", #"{"callback": "https://x/v?Signature=abc&K=2", "n": 2, "u": "https://z/?sig=abc"}"#)],
            report: """
                No recorded interaction matches POST /hooks.
                Closest: c interaction 0 (POST /hooks), which differs in:
                  $.n: recorded 1, received 2
                  $.u: recorded "https://y/?sig=<redacted>", received "https://z/?sig=abc"
                """),
        Case(
            name: "a chosen header",
            interactions: [.stub("GET", "/a", requestHeaders: ["Accept": "application/json"])], rules: MatchRules(headers: ["Accept"]),
            requests: [get("/a", headers: ["accept": "text/html"])],
            report: """
                No recorded interaction matches GET /a.
                Closest: c interaction 0 (GET /a), which differs in:
                  header Accept: recorded "application/json", received "text/html"
                """),
        Case(
            name: "the closest of several",
            interactions: [.stub("GET", "/users?since=0&per_page=2"), .stub("GET", "/users?since=5&per_page=9"), .stub("POST", "/users")],
            requests: [get("/users?since=5&per_page=9&x=1")],
            report: """
                No recorded interaction matches GET /users?since=5&per_page=9&x=1.
                Closest: c interaction 1 (GET /users?since=5&per_page=9), which differs in:
                  query x: recorded nothing, received "1"
                """),
        Case(
            name: "form fields, with a redacted one matching",
            interactions: [recorded(form("/login", "username=ann&password=%3Credacted%3E"))],
            requests: [form("/login", "password=hunter2&username=bob")],
            report: """
                No recorded interaction matches POST /login.
                Closest: c interaction 0 (POST /login), which differs in:
                  form field username: recorded "ann", received "bob"
                """),
        Case(
            name: "a multipart part's filename and content type",
            interactions: [recorded(upload(filename: "cat.jpg", type: "image/jpeg"))],
            requests: [upload(filename: "dog.png", type: "image/png")],
            report: """
                No recorded interaction matches POST /photos.
                Closest: c interaction 0 (POST /photos), which differs in:
                  part photo filename: recorded "cat.jpg", received "dog.png"
                  part photo content type: recorded "image/jpeg", received "image/png"
                """),
        Case(
            name: "a different kind of body",
            interactions: [recorded(json("POST", "/a", #"{"a": 1}"#))], requests: [form("/a", "a=1")],
            report: """
                No recorded interaction matches POST /a.
                Closest: c interaction 0 (POST /a), which differs in:
                  body: recorded JSON {"a":1}, received form fields a=1
                """),
        Case(
            name: "a match already used up",
            interactions: [.stub("GET", "/x")], rules: MatchRules(afterLast: .fail), requests: [get("/x"), get("/x")],
            report: "GET /x matched c interaction 0 (GET /x), but it was already used and afterLast is fail."),
        Case(
            name: "several matches used up",
            interactions: [.stub("GET", "/x"), .stub("GET", "/x")], rules: MatchRules(afterLast: .fail),
            requests: [get("/x"), get("/x"), get("/x")],
            report: """
                GET /x matched 2 recorded interactions, but each was already used and afterLast is fail:
                  c interaction 0 (GET /x)
                  c interaction 1 (GET /x)
                """),
        Case(
            name: "nothing recorded", interactions: [], requests: [get("/x")],
            report: "No recorded interaction matches GET /x; the cassettes hold no interactions."),
    ]

    @Test(arguments: cases)
    func unmatchedReport(_ testCase: Case) throws {
        // GIVEN a cassette WHEN the requests are sent in turn
        let engine = ReplayEngine(cassettes: [Cassette(name: "c", matching: testCase.rules, interactions: testCase.interactions)])
        var last: ReplayAnswer?
        for request in testCase.requests { last = engine.answer(request) }
        // THEN the last one is unmatched with exactly this report
        guard let nearMiss = try #require(last).nearMiss else {
            Issue.record("expected an unmatched decision")
            return
        }
        #expect(nearMiss.description == testCase.report)
    }

    @Test func unmatchedResponse_is404WithTheReportAsJSON() throws {
        // GIVEN a cassette and a request differing in one query value
        let engine = ReplayEngine(cassettes: [Cassette(name: "github-users", interactions: [.stub("GET", "/users?since=0")])])
        // WHEN it is answered
        let response = try #require(engine.answer(Self.get("/users?since=1")).response)
        // THEN it is a 404 marked as unmatched, whose JSON names the request, the closest and the difference
        #expect(response.status == 404)
        #expect(response.headers["X-MockServer-Unmatched"] == "1")
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(response.headers["Content-Length"] == String(response.body.count))
        let body = try CassetteJSON(parsing: response.body)
        #expect(body["error"] == "unmatched request")
        #expect(body["request"] == ["method": "GET", "target": "/users?since=1"])
        #expect(body["closest"] == ["cassette": "github-users", "interaction": 0, "method": "GET", "target": "/users?since=0"])
        #expect(body["differences"] == [#"query since: recorded "0", received "1""#])
        #expect(body["message"]?.stringValue?.hasPrefix("No recorded interaction matches GET /users?since=1.") == true)
        #expect(body["usedUp"] == nil)
    }

    @Test func usedUpResponse_listsTheUsedInteractions() throws {
        let engine = ReplayEngine(cassettes: [Cassette(name: "c", matching: MatchRules(afterLast: .fail), interactions: [.stub("GET", "/x")])])
        _ = engine.answer(Self.get("/x"))
        let body = try CassetteJSON(parsing: try #require(engine.answer(Self.get("/x")).response).body)
        #expect(body["usedUp"] == [["cassette": "c", "interaction": 0, "method": "GET", "target": "/x"]])
        #expect(body["closest"] == .null)
    }

    @Test func longDifferenceLists_areShortenedInTheReport() throws {
        let recordedBody = CassetteJSON.object(
            CassetteJSON.Members(Dictionary(uniqueKeysWithValues: (0..<30).map { ("k\($0 + 10)", CassetteJSON.number(JSONNumber($0))) })))
        let engine = ReplayEngine(cassettes: [
            Cassette(
                name: "c",
                interactions: [
                    Interaction(request: RecordedRequest(method: "POST", target: "/a", body: .json(recordedBody)), response: RecordedResponse(status: 200))
                ])
        ])
        guard let nearMiss = engine.answer(Self.json("POST", "/a", "{}")).nearMiss else {
            Issue.record("expected unmatched")
            return
        }
        #expect(nearMiss.differences.count == 30)
        let lines = nearMiss.description.split(separator: "\n")
        #expect(lines.count == 2 + NearMiss.listedDifferenceLimit + 1)
        #expect(lines.last == "  … and 10 more differences")
    }
}
