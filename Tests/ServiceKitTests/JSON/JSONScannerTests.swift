@_spi(JSONScanning) import ServiceReplayShared
import Testing

/// The one JSON scanner under ServiceKit's and MockServer's parsers, driven directly: where each step leaves
/// it and what it reports. The parsers' own tests cover its errors through them.
@Suite struct JSONScannerTests {
    /// `body` on a scanner over `bytes` (lone surrogates replaced unless `policy` says otherwise), and where
    /// it left the scanner.
    private func scanning<T>(
        _ bytes: [UInt8], policy: JSONScanner.LoneSurrogates = .replace,
        _ body: (inout JSONScanner) throws -> T
    ) -> (result: Result<T, any Error>, index: Int) {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(bytes: buffer, loneSurrogates: policy)
            let result = Result { try body(&scanner) }
            return (result, scanner.index)
        }
    }

    private func scanning<T>(
        _ text: String, policy: JSONScanner.LoneSurrogates = .replace,
        _ body: (inout JSONScanner) throws -> T
    ) -> (result: Result<T, any Error>, index: Int) {
        scanning(Array(text.utf8), policy: policy, body)
    }

    @Test func byteOrderMark_isSkippedOnlyAtTheVeryStart() {
        #expect(scanning([0xEF, 0xBB, 0xBF, 0x31]) { $0.skipByteOrderMark() }.index == 3)
        #expect(scanning([0xEF, 0xBB, 0xBF]) { $0.skipByteOrderMark() }.index == 3)
        #expect(scanning([0xEF, 0xBB]) { $0.skipByteOrderMark() }.index == 0)
        #expect(scanning([0xEF, 0xBB, 0xBE]) { $0.skipByteOrderMark() }.index == 0)
        #expect(scanning([0xEF, 0xBA, 0xBF]) { $0.skipByteOrderMark() }.index == 0)
        #expect(scanning([0xEE, 0xBB, 0xBF]) { $0.skipByteOrderMark() }.index == 0)
        let later = scanning([0x20, 0xEF, 0xBB, 0xBF]) { scanner in
            scanner.index = 1
            scanner.skipByteOrderMark()
        }
        #expect(later.index == 1)
    }

    @Test func whitespace_isTheFourJSONBytesOnly() {
        #expect(scanning(" \t\r\n x") { $0.skipWhitespace() }.index == 5)
        #expect(scanning(" \u{0B}") { $0.skipWhitespace() }.index == 1)
        #expect(scanning(" \u{A0}") { $0.skipWhitespace() }.index == 1)
        #expect(scanning("  ") { $0.skipWhitespace() }.index == 2)
    }

    @Test func currentByte_andTheEnd() throws {
        let probe = scanning("ab") { scanner in
            let first = (scanner.isAt(UInt8(ascii: "a")), scanner.isAt(UInt8(ascii: "b")), scanner.current, scanner.isAtEnd)
            scanner.index = 2
            return (first, scanner.isAt(UInt8(ascii: "b")), scanner.isAtEnd)
        }
        let ((atA, atB, current, endBefore), atBAtEnd, endAfter) = try probe.result.get()
        #expect(atA && !atB && current == UInt8(ascii: "a") && !endBefore)
        #expect(!atBAtEnd && endAfter)
    }

    @Test func literal_isSteppedOverWhole() {
        let scanned = scanning("false,") { try $0.expectLiteral("false") }
        #expect((try? scanned.result.get()) != nil)
        #expect(scanned.index == 5)
        #expect(scanning("null") { try $0.expectLiteral("null") }.index == 4)
        let wrong = scanning("nulx") { try $0.expectLiteral("null") }
        #expect(throws: JSONParseError.self) { try wrong.result.get() }
        #expect(wrong.index == 0)
    }

    @Test(arguments: [
        (#""ab"x"#, 1, 3, false, 4), (#""""#, 1, 1, false, 2), (#""a\nb""#, 1, 5, true, 6), (#""é""#, 1, 3, false, 4),
        (#""\u00e9\"""#, 1, 9, true, 10), (#""\ud83d\ude00""#, 1, 13, true, 14), ("\"\u{10FFFF}\"", 1, 5, false, 6),
        ("\"\u{7F}\u{800}\"", 1, 5, false, 6),
    ])
    func string_saysWhereItsTextLies(text: String, start: Int, end: Int, hasEscapes: Bool, after: Int) throws {
        for policy in [JSONScanner.LoneSurrogates.replace, .refuse] {
            let scanned = scanning(text, policy: policy) { try $0.scanString() }
            let string = try scanned.result.get()
            #expect(string.start == start)
            #expect(string.end == end)
            #expect(string.hasEscapes == hasEscapes)
            #expect(scanned.index == after)
        }
    }

    @Test(arguments: [
        ("-0.5e+3,", 7, false), ("12]", 2, true), ("0", 1, true), ("-0", 2, true), ("1E5", 3, false), ("1.5", 3, false),
        ("1e-07 ", 5, false), ("0.0", 3, false), ("90", 2, true), ("1.25e", -1, false), ("-a", -1, false), ("", -1, false),
    ])
    func number_followsTheGrammar_andSaysWhetherItIsAnInteger(text: String, end: Int, isInteger: Bool) {
        let scanned = scanning(text) { try $0.scanNumber() }
        guard end >= 0 else {
            #expect(throws: JSONParseError.self) { try scanned.result.get() }
            return
        }
        let number = try? scanned.result.get()
        #expect(number?.start == 0)
        #expect(number?.end == end)
        #expect(number?.isInteger == isInteger)
        #expect(scanned.index == end)
    }

    @Test func unescaping_replacesEveryEscape_andLoneSurrogatesWithReplacementCharacter() {
        let text = #"a\"\\\/\b\f\n\r\t\u00e9\u20AC\ud83d\ude00\ud800\udc00x\uDBFFz"#
        let unescaped = Array(text.utf8).withUnsafeBufferPointer { JSONScanner.unescapedString($0) }
        #expect(unescaped == "a\"\\/\u{8}\u{C}\n\r\t\u{E9}€😀\u{10000}x\u{FFFD}z")
        let lone = Array(#"\udc00\ud800"#.utf8).withUnsafeBufferPointer { JSONScanner.unescapedString($0) }
        #expect(lone == "\u{FFFD}\u{FFFD}")
    }

    @Test func hexQuad_readsFourDigitsOfEitherCase() {
        let text = Array("x09aFAf12g4".utf8)
        text.withUnsafeBufferPointer { buffer in
            #expect(JSONScanner.hexQuad(buffer, at: 1) == 0x09AF)
            #expect(JSONScanner.hexQuad(buffer, at: 3) == 0xAFAF)
            #expect(JSONScanner.hexQuad(buffer, at: 5) == 0xAF12)
            #expect(JSONScanner.hexQuad(buffer, at: 6) == nil)
            #expect(JSONScanner.hexQuad(buffer, at: 0) == nil)
            #expect(JSONScanner.hexQuad(buffer, at: 8) == nil)
        }
    }

    @Test func failure_endsEarlyByDefaultOnlyAtTheEnd() throws {
        let errors = scanning("ab") { scanner in
            let inside = scanner.failure("x")
            scanner.index = 2
            return (inside, scanner.failure("y", at: 1), scanner.failure("z", at: 0, endsEarly: false))
        }
        let (inside, atEnd, overridden) = try errors.result.get()
        #expect(!inside.endsEarly && inside.byteOffset == 0)
        #expect(atEnd.endsEarly && atEnd.byteOffset == 1 && atEnd.column == 2)
        #expect(!overridden.endsEarly && overridden.problem == "z")
    }
}
