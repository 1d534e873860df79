@testable import MockServer
@testable import MockServerWire
import Testing

/// How the writer reads a handler's own `Content-Length`, which decides whether the connection can stay open.
@Suite struct ResponseWriterTests {
    @Test(
        arguments: [
            ("300", 300), (" 12\t", 12), ("\t7 ", 7), ("+12", 12), ("-1", -1),
            ("", nil), ("  ", nil), ("1 2", nil), ("12a", nil), ("0x10", nil),
        ] as [(String, Int?)])
    func contentLength_isTheNumberBetweenSpacesAndTabs(value: String, expected: Int?) {
        #expect(ResponseWriter.contentLength(value) == expected)
    }
}
