@testable import ExampleServices
import Testing

@Suite struct HTMLEntitiesTests {
    @Test(arguments: [
        ("Why doesn&#39;t it work?", "Why doesn't it work?"),
        ("&quot;quoted&quot; &amp; &lt;tag&gt;", "\"quoted\" & <tag>"),
        ("hex &#x27;x&#X27;", "hex 'x'"),
        ("caf&#233; &eacute; &hellip;", "café é …"),
        ("no entities", "no entities"),
        ("AT&T and R&D", "AT&T and R&D"),
        ("&unknown; &#xZZ; &#99999999;", "&unknown; &#xZZ; &#99999999;"),
        ("trailing &", "trailing &"),
        ("&amp;amp;", "&amp;"),
    ])
    func decode_replacesKnownReferencesOnly(text: String, expected: String) {
        #expect(HTMLEntities.decode(text) == expected)
    }
}
