import Foundation
import ServiceKit
import Testing

@Suite struct LinkHeaderTests {
    func links(_ values: [String], url: String? = "https://api.github.com/users?since=0") -> [String: URL] {
        let headers = ResponseHeaders(values.map { ResponseHeaders.Field(name: "Link", value: $0) })
        return RawResponse(statusCode: 200, headers: headers, body: Data("[]".utf8), url: url.flatMap(URL.init(string:)))
            .links
    }

    @Test func gitHubLink_yieldsNextAndSkipsTemplates() {
        // Given GitHub's users Link header, whose "first" target is a URI template
        let found = links([#"<https://api.github.com/users?since=46&per_page=2>; rel="next", <https://api.github.com/users{?since}>; rel="first""#])
        // Then "next" is a URL and the template is skipped
        #expect(found == ["next": URL(string: "https://api.github.com/users?since=46&per_page=2")!])
    }

    @Test func severalRelationsAndHeaders_areAllRead() {
        let found = links([#"<https://x.test/p3>; rel="next last"; title="a, b""#, #"<https://x.test/p1>; rel=prev"#])
        #expect(found["next"] == URL(string: "https://x.test/p3"))
        #expect(found["last"] == URL(string: "https://x.test/p3"))
        #expect(found["prev"] == URL(string: "https://x.test/p1"))
    }

    @Test func relativeTargets_resolveAgainstResponseURL() {
        #expect(links([#"</users?since=46>; rel="next""#])["next"]?.absoluteString == "https://api.github.com/users?since=46")
    }

    @Test func firstTargetOfARelationWins() {
        #expect(
            links([#"<https://x.test/a>; rel="next", <https://x.test/b>; rel="next""#])["next"]
                == URL(string: "https://x.test/a"))
    }

    @Test func noLinkHeader_isEmpty() {
        #expect(links([]).isEmpty)
        #expect(links(["garbage"]).isEmpty)
    }
}
