import Foundation
@testable import MockServer
import Testing

/// What the engine hands the server: ready responses, error templates, the cassettes it serves.
@Suite struct ReplayEngineTests {
    @Test func matchedResponse_isPreparedForTheWire() throws {
        // GIVEN the canonical fixture (gzip'd JSON recorded decoded, with repeated Set-Cookie)
        let cassette = try Cassette(jsonData: Data(CassetteFixtures.githubUsers.utf8), source: "users.json")
        let engine = ReplayEngine(cassettes: [cassette])
        // WHEN the recorded request arrives (query reordered, ignored parameter added, chosen header present)
        let decision = engine.answer(
            HTTPRequest(
                method: "GET", target: "/users?per_page=2&since=0&_=123",
                headers: ["Accept": "application/vnd.github+json"]))
        // THEN the JSON body is compact with sorted keys, Content-Length fits it, and headers keep their order
        let response = try #require(decision.response)
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body == #"[{"avatar_url":"https://avatars.githubusercontent.com/u/1?v=4","id":1,"login":"mojombo","score":1.50}]"#)
        #expect(response.status == 200)
        #expect(response.headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(response.headers["Content-Length"] == String(response.body.count))
        #expect(decision.interaction?.description == "github-users interaction 0 (GET /users?since=0&per_page=2)")
    }

    @Test func matchedResponse_isTheSameObjectEachTime() throws {
        // Bodies are serialized once at build time, not per request.
        let large = CassetteJSON.array((0..<50).map { .number(JSONNumber($0)) })
        let engine = ReplayEngine(cassettes: [Cassette(name: "c", interactions: [.stub("GET", "/x", json: large)])])
        let first = try #require(engine.answer(HTTPRequest(method: "GET", target: "/x")).response)
        let second = try #require(engine.answer(HTTPRequest(method: "GET", target: "/x")).response)
        #expect(first.body == second.body)
        first.body.withUnsafeBytes { left in
            second.body.withUnsafeBytes { right in
                #expect(left.baseAddress == right.baseAddress)
            }
        }
    }

    @Test func errorTemplates_areReadyToSend() throws {
        let cassette = try Cassette(jsonData: Data(CassetteFixtures.githubUsers.utf8), source: "users.json")
        let engine = ReplayEngine(cassettes: [Cassette(name: "other"), cassette])
        let template = try #require(engine.errorTemplate(named: "rate_limit"))
        #expect(template.status == 403)
        #expect(String(decoding: template.body, as: UTF8.self) == #"{"message":"API rate limit exceeded"}"#)
        #expect(engine.errorTemplate(named: "rate_limit", inCassette: "other") == nil)
        #expect(engine.errorTemplate(named: "nope") == nil)
    }

    @Test func stubBuilder_addsJSONContentType_andKeepsRequestDetails() {
        let stub = Interaction.stub(
            "POST", "/login", status: 401, json: ["error": "invalid_credentials"],
            requestBody: .json(["username": "ann"]), requestHeaders: ["Accept": "application/json"])
        #expect(
            stub.request
                == RecordedRequest(
                    method: "POST", target: "/login", headers: ["Accept": "application/json"],
                    body: .json(["username": "ann"])))
        #expect(
            stub.response
                == RecordedResponse(
                    status: 401, headers: ["Content-Type": "application/json"],
                    body: .json(["error": "invalid_credentials"])))
        let text = Interaction.stub("GET", "/robots.txt", text: "User-agent: *")
        #expect(text.response?.headers["Content-Type"] == "text/plain; charset=utf-8")
    }

    @Test func stubbedRequestBody_mustMatch() {
        let engine = ReplayEngine(cassettes: [
            Cassette(
                name: "c",
                interactions: [
                    .stub("POST", "/login", status: 200, json: ["ok": true], requestBody: .json(["username": "ann"]))
                ])
        ])
        func send(_ body: String) -> Int? {
            engine.answer(
                HTTPRequest(
                    method: "POST", target: "/login", headers: ["Content-Type": "application/json"],
                    body: Data(body.utf8))
            ).response?.status
        }
        #expect(send(#"{"username": "bob"}"#) == 404)
        #expect(send(#"{"username": "ann"}"#) == 200)
    }
}
