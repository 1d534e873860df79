import Foundation
@testable import MockServer
import ServiceReplayShared
import ServiceReplayTestSupport
import Testing

/// The cassette parser on the lexical checks it shares with ServiceKit's parser (the one JSON scanner): the
/// same problem at the same place as ServiceKit reports for the same text, and lone surrogates refused.
@Suite struct CassetteJSONLexicalTests {
    @Test(arguments: JSONLexicalErrorCase.all)
    func parsing_lexicalError_isTheScannersProblemAtItsPlace(_ example: JSONLexicalErrorCase) {
        let error = #expect(throws: JSONParseError.self) { try CassetteJSON(parsing: Data(example.bytes)) }
        #expect(error?.problem == example.problem)
        #expect(error?.line == example.line)
        #expect(error?.column == example.column)
        #expect(error?.byteOffset == example.byteOffset)
        #expect(error?.endsEarly == example.endsEarly)
    }

    @Test(arguments: JSONSurrogateCase.all)
    func parsing_loneSurrogateEscape_isRefusedAtItsBackslash(_ example: JSONSurrogateCase) throws {
        guard let offset = example.refusedAt else {
            // A pair, or no surrogate at all: the same string ServiceKit reads
            #expect(try CassetteJSON(parsing: example.text) == [.string(example.replaced)])
            return
        }
        // A cassette must replay what it says, so a lone surrogate, which no string can hold, is an error
        let error = #expect(throws: JSONParseError.self) { try CassetteJSON(parsing: example.text) }
        #expect(error?.byteOffset == offset)
        #expect(error?.problem.hasPrefix(#"unpaired surrogate in a \u escape, expected a high surrogate"#) == true)
        #expect(error?.endsEarly == false)
    }

    @Test(arguments: [
        ("[\"\\ud800", true), ("[\"\\ud800\\", true), ("[\"\\ud800\\u", true), ("[\"\\ud800\\n", false), ("{\"a\": [1, 2", true), ("[1, 2]]", false),
        ("[\"a\"", true), ("nul", true),
        ("nulL", false),
    ])
    func parsing_endsEarly_onlyWhenMoreBytesCouldMakeTheDocumentWhole(input: String, endsEarly: Bool) {
        let error = #expect(throws: JSONParseError.self) { try CassetteJSON(parsing: input) }
        #expect(error?.endsEarly == endsEarly)
    }
}
