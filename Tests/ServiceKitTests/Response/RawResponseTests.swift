import Foundation
import ServiceKit
import Testing

@Suite struct RawResponseTests {
    func reply(_ body: String, contentType: String? = "application/json", status: Int = 200) -> RawResponse {
        var headers: ResponseHeaders = [:]
        if let contentType {
            headers = ["Content-Type": contentType]
        }
        return RawResponse(statusCode: status, headers: headers, body: Data(body.utf8))
    }

    @Test(arguments: [
        "application/json", "application/json; charset=utf-8", "application/vnd.github+json",
        "text/json", "APPLICATION/JSON",
    ])
    func json_parsedForJSONContentTypes(contentType: String) {
        #expect(reply(#"{"a": 1}"#, contentType: contentType).json?["a"].int == 1)
    }

    @Test func json_parsedWhenContentTypeMissing() {
        #expect(reply(#"[1]"#, contentType: nil).json?[0].int == 1)
    }

    @Test func json_notParsedForOtherContentTypes() {
        let html = reply(#"{"a": 1}"#, contentType: "text/html; charset=utf-8")
        #expect(html.json == nil)
        #expect(html.contentType == "text/html")
    }

    @Test func json_absentForEmptyOrMalformedBodies() {
        #expect(reply("").json == nil)
        #expect(reply("{").json == nil)
        #expect(reply("null").json == nil)
    }

    @Test func requiredJSON_isTheJSON_orTheErrorTheDefaultMappingThrows() throws {
        // Given a JSON body, then its root
        #expect(try reply(#"{"a": 1}"#).requiredJSON["a"].int == 1)
        // Given no usable JSON, then the reason, with the status
        let html = try #require(throws: WebServiceError.self) { try reply("<p>", contentType: "text/html", status: 201).requiredJSON }
        #expect(html.reason == .service(.wrongContentType("text/html")))
        #expect(html.statusCode == 201)
        #expect(throws: WebServiceError.service(.undecodableBody)) { try reply("").requiredJSON }
        let malformed = try #require(throws: WebServiceError.self) { try reply("{").requiredJSON }
        #expect(malformed.reason == .service(.undecodableBody))
        #expect(malformed.underlyingError is JSONParseError)
    }

    @Test func headers_lookUpCaseInsensitivelyAndCombineRepeats() {
        let headers: ResponseHeaders = ["link": "<a>; rel=\"next\"", "X-Other": "1", "Link": "<b>; rel=\"prev\""]
        #expect(headers["LINK"] == "<a>; rel=\"next\", <b>; rel=\"prev\"")
        #expect(headers.values(for: "Link").count == 2)
        #expect(headers["missing"] == nil)
    }

    @Test func isSuccess_onlyFor2xx() {
        #expect(reply("{}", status: 204).isSuccess)
        #expect(!reply("{}", status: 304).isSuccess)
        #expect(!reply("{}", status: 199).isSuccess)
    }
}
