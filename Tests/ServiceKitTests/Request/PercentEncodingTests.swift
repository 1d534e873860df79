@testable import ServiceKit
import Testing

@Suite struct PercentEncodingTests {
    @Test(arguments: [
        ("abcXYZ019-._~", "abcXYZ019-._~"),
        ("a b", "a%20b"),
        ("swift;ios", "swift%3Bios"),
        ("a+b&c=d/e?f#g", "a%2Bb%26c%3Dd%2Fe%3Ff%23g"),
        ("100%", "100%25"),
        ("é", "%C3%A9"),
        ("[]", "%5B%5D"),
    ])
    func component_encodesAllButUnreserved(text: String, expected: String) {
        #expect(PercentEncoding.component(text) == expected)
    }

    @Test func formComponent_writesSpacesAsPlus() {
        #expect(PercentEncoding.formComponent("Ann Lee+1") == "Ann+Lee%2B1")
    }

    @Test func path_keepsSeparatorsAndSubDelimiters() {
        #expect(PercentEncoding.encode("/users/a b/@me:1", allowing: PercentEncoding.path) == "/users/a%20b/@me:1")
    }
}
