import Foundation
import ServiceKit
import ServiceReplayTestSupport
import Testing

/// ServiceKit's parser on the lexical checks it shares with the cassette parser (the one JSON scanner): the
/// same problem at the same place as MockServer reports for the same text, and lone surrogates its own way.
@Suite struct JSONLexicalErrorTests {
    @Test(arguments: JSONLexicalErrorCase.all)
    func parse_lexicalError_isTheScannersProblemAtItsPlace(_ example: JSONLexicalErrorCase) {
        // When malformed text is parsed as a response body
        let error = #expect(throws: WebServiceError.self) { try JSONValue.parse(Data(example.bytes)) }
        // Then the body is undecodable for the reason and at the place MockServer's cassette parser gives too
        #expect(error?.reason == .service(.undecodableBody))
        let parseError = error?.underlyingError as? JSONParseError
        #expect(parseError?.problem == example.problem)
        #expect(parseError?.line == example.line)
        #expect(parseError?.column == example.column)
        #expect(parseError?.byteOffset == example.byteOffset)
        #expect(parseError?.endsEarly == example.endsEarly)
    }

    @Test(arguments: JSONSurrogateCase.all)
    func parse_loneSurrogateEscape_readsAsReplacementCharacter(_ example: JSONSurrogateCase) throws {
        // A server's body with a lone surrogate escape is still read (RFC 8259 leaves it to the parser), as U+FFFD
        #expect(try JSONValue.parse(Data(example.text.utf8)) == [.string(example.replaced)])
    }
}
