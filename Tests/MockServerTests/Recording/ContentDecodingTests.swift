import Foundation
@testable import MockServer
import Testing

@Suite struct ContentDecodingTests {
    // MARK: Bodies zlib made

    @Test(arguments: ContentCodingVector.all)
    func compressedBody_decodesToThePlainBytes(vector: ContentCodingVector) throws {
        let decoded = try ContentCoding.decode(vector.encoded, contentEncoding: vector.contentEncoding)
        #expect(decoded == vector.plain)
    }

    @Test(arguments: ["gzip, identity", " Identity , X-GZIP ,", "x-gzip", "GZIP"])
    func codingNames_areCaseInsensitive_andIdentityChangesNothing(contentEncoding: String) throws {
        let decoded = try ContentCoding.decode(ContentCodingVector.named("gzipFixed").encoded, contentEncoding: contentEncoding)
        #expect(decoded == PlainTexts.hello)
    }

    @Test(arguments: ["", "identity", " , "])
    func noCoding_returnsTheBodyAsItIs(contentEncoding: String) throws {
        let body = Data([0x1F, 0x8B, 0x00, 0xFF])
        #expect(try ContentCoding.decode(body, contentEncoding: contentEncoding) == body)
    }

    @Test(arguments: ["gzip", "deflate", "identity, gzip"])
    func emptyBody_staysEmpty(contentEncoding: String) throws {
        #expect(try ContentCoding.decode(Data(), contentEncoding: contentEncoding).isEmpty)
    }

    @Test(arguments: [
        ("gzip", true), ("x-gzip", true), ("GZip", true), ("deflate", true), ("identity", true), ("", true),
        ("gzip, identity", true), ("deflate,gzip", true), ("br", false), ("gzip, br", false), ("zstd", false),
        ("compress", false), ("gzip;q=1", false),
    ])
    func canDecode_acceptsOnlyKnownCodings(contentEncoding: String, expected: Bool) {
        #expect(ContentCoding.canDecode(contentEncoding) == expected)
    }

    @Test func unknownCoding_throws_namingIt() {
        expectFailure(
            ContentCodingVector.named("gzipFixed").encoded, "gzip, BR",
            "The upstream's body is encoded with 'br', which the recorder cannot decode.")
    }

    // MARK: Stored blocks

    @Test func storedBlocks_longerThanOneBlockHolds_decodeInSequence() throws {
        let first = Data((0..<65_535).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let second = Data("the end".utf8)
        var stream = Data([0x00, 0xFF, 0xFF, 0x00, 0x00]) + first  // BFINAL 0, stored, LEN 65535, NLEN 0
        stream += Data([0x01, 0x07, 0x00, 0xF8, 0xFF]) + second  // BFINAL 1, stored, LEN 7, NLEN ~7
        #expect(try ContentCoding.decode(stream, contentEncoding: "deflate") == first + second)
    }

    @Test func storedBlock_whoseLengthDoesNotMatchItsComplement_throws() {
        expectFailure(
            Data([0x01, 0x05, 0x00, 0x00, 0x00]) + Data("hello".utf8), "deflate",
            "The upstream's deflate body is corrupt: a stored block's length does not match its complement.")
    }

    // MARK: Streams no compressor makes

    @Test func backReference_overlappingItsOwnOutput_repeatsTheRun() throws {
        var bits = DeflateBits()
        bits.fixedBlockHeader(isFinal: true)
        bits.fixedLiteral(Int(UInt8(ascii: "a")))
        bits.fixedLiteral(Int(UInt8(ascii: "b")))
        bits.fixedLiteral(265)  // length 11 or 12: one extra bit
        bits.number(1, bits: 1)  // 12
        bits.code(1, bits: 5)  // distance 2
        bits.fixedLiteral(256)
        #expect(try ContentCoding.decode(bits.data, contentEncoding: "deflate") == Data(String(repeating: "ab", count: 7).utf8))
    }

    @Test func backReference_beforeTheStartOfTheData_throws() {
        var bits = DeflateBits()
        bits.fixedBlockHeader(isFinal: true)
        bits.fixedLiteral(Int(UInt8(ascii: "a")))
        bits.fixedLiteral(257)  // length 3
        bits.code(1, bits: 5)  // distance 2, one more than was written
        bits.fixedLiteral(256)
        expectFailure(bits.data, "deflate", "The upstream's deflate body is corrupt: a back-reference points before the start of the data.")
    }

    @Test func reservedBlockType_throws() {
        var bits = DeflateBits()
        bits.number(1, bits: 1)
        bits.number(3, bits: 2)
        expectFailure(bits.data, "deflate", "The upstream's deflate body is corrupt: a block has the reserved type 3.")
    }

    @Test(arguments: [286, 287])
    func reservedLengthSymbol_throws(symbol: Int) {
        var bits = DeflateBits()
        bits.fixedBlockHeader(isFinal: true)
        bits.fixedLiteral(Int(UInt8(ascii: "a")))
        bits.fixedLiteral(symbol)
        bits.code(0, bits: 5)
        bits.fixedLiteral(256)
        expectFailure(bits.data, "deflate", "The upstream's deflate body is corrupt: it holds a code that stands for no symbol.")
    }

    @Test(arguments: [30, 31])
    func reservedDistanceSymbol_throws(symbol: Int) {
        var bits = DeflateBits()
        bits.fixedBlockHeader(isFinal: true)
        bits.fixedLiteral(Int(UInt8(ascii: "a")))
        bits.fixedLiteral(257)
        bits.code(symbol, bits: 5)
        bits.fixedLiteral(256)
        expectFailure(bits.data, "deflate", "The upstream's deflate body is corrupt: it holds a code that stands for no symbol.")
    }

    @Test func dynamicBlock_withMoreCodesOfALengthThanPatterns_throws() {
        var bits = DeflateBits()
        bits.number(1, bits: 1)
        bits.number(2, bits: 2)
        bits.number(0, bits: 5)  // 257 literal/length codes
        bits.number(0, bits: 5)  // 1 distance code
        bits.number(15, bits: 4)  // 19 code-length code lengths, all 1: only two 1-bit patterns exist
        for _ in 0..<19 { bits.number(1, bits: 3) }
        expectFailure(bits.data, "deflate", "The upstream's deflate body is corrupt: a block's Huffman code lengths are invalid.")
    }

    @Test func dynamicBlock_withoutAnEndOfBlockCode_throws() {
        var bits = DeflateBits()
        bits.number(1, bits: 1)
        bits.number(2, bits: 2)
        bits.number(0, bits: 5)  // 257 literal/length codes
        bits.number(0, bits: 5)  // 1 distance code
        bits.number(14, bits: 4)  // 18 code-length code lengths, in the order 16 17 18 0 8 ...
        // Symbols 8 and 18 get 1-bit codes: 8 is "0", 18 is "1" (within a length, codes follow symbol order).
        for length in [0, 0, 1, 0, 1] + [Int](repeating: 0, count: 13) { bits.number(length, bits: 3) }
        // All 258 lengths zero, end-of-block's included, except the last (the distance code's), 8.
        bits.code(1, bits: 1)
        bits.number(127, bits: 7)  // 18: 11 + 127 = 138 zeros
        bits.code(1, bits: 1)
        bits.number(108, bits: 7)  // 18: 119 more zeros, 257 in all
        bits.code(0, bits: 1)  // 8
        expectFailure(bits.data, "deflate", "The upstream's deflate body is corrupt: a block's Huffman code lengths are invalid.")
    }

    // MARK: Containers

    /// A byte changed at `offset` (from the end when negative) by xor with `change`.
    @Test(
        arguments: [
            ("gzipFixed", -8, 0x40, "The upstream's gzip body is corrupt: the CRC-32 does not match."),
            ("gzipDynamic", -1, 0x40, "The upstream's gzip body is corrupt: the length in its trailer does not match."),
            ("gzipAllHeaderFields", 20, 0x40, "The upstream's gzip body is corrupt: the header's CRC-16 does not match."),  // in FNAME
            ("gzipFixed", 2, 0x01, "The upstream's gzip body is corrupt: it names compression method 9, not deflate (8)."),
            ("gzipFixed", 3, 0x20, "The upstream's gzip body is corrupt: its header sets reserved flags."),
            ("zlibDynamic", -1, 0x40, "The upstream's deflate body is corrupt: the Adler-32 checksum does not match."),
        ] as [(String, Int, UInt8, String)])
    func changedByte_isDetected(vector: String, offset: Int, change: UInt8, message: String) {
        var body = ContentCodingVector.named(vector).encoded
        body[offset < 0 ? body.count + offset : offset] ^= change
        expectFailure(body, ContentCodingVector.named(vector).contentEncoding, message)
    }

    @Test func bodyWithoutTheGzipSignature_throws() {
        expectFailure(Data("{\"plain\": true}".utf8), "x-gzip", "The upstream's gzip body is not gzip data: it does not start with the gzip signature.")
    }

    @Test func zlibHeaderAskingForAPresetDictionary_throws() {
        expectFailure(
            Data([0x78, 0xBB, 0x00, 0x00, 0x00, 0x01, 0x03, 0x00]), "deflate",
            "The upstream's deflate body is corrupt: it needs a preset dictionary, which HTTP does not provide.")
    }

    @Test(arguments: ["gzipFixed", "zlibDynamic", "rawDynamic"])
    func bytesAfterTheCompressedData_throw(vector: String) {
        let vector = ContentCodingVector.named(vector)
        expectFailure(
            vector.encoded + Data([0x00]), vector.contentEncoding,
            "The upstream's \(vector.contentEncoding) body is corrupt: other bytes follow the end of the compressed data.")
    }

    @Test(arguments: ["gzipFixed", "gzipAllHeaderFields", "zlibDynamic", "rawFixedMatches", "zlibThenGzip"])
    func everyTruncation_throwsTruncated(vector: String) {
        let vector = ContentCodingVector.named(vector)
        let coding = vector.contentEncoding.split(separator: ",").last!.trimmingCharacters(in: .whitespaces)
        for length in 1..<vector.encoded.count {
            expectFailure(vector.encoded.prefix(length), vector.contentEncoding, "The upstream's \(coding) body is truncated.")
        }
    }

    // MARK: The output limit

    @Test(arguments: ["gzipDynamic", "gzipStored", "gzipMultiMember", "zlibDynamic", "rawFarBack"])
    func outputLimit_allowsExactlyThePlainSize_andNoMore(vector: String) throws {
        let vector = ContentCodingVector.named(vector)
        let limit = vector.plain.count
        #expect(try ContentCoding.decode(vector.encoded, contentEncoding: vector.contentEncoding, limit: limit) == vector.plain)
        expectFailure(
            vector.encoded, vector.contentEncoding, limit: limit - 1,
            "The upstream's \(vector.contentEncoding) body decodes to more than \(limit - 1) bytes, the limit for a recorded body.")
    }

    @Test func defaultLimit_isOneGibibyte() {
        #expect(ContentCoding.defaultLimit == 1_073_741_824)
    }

    // MARK: Helpers

    private func expectFailure(
        _ body: Data, _ contentEncoding: String, limit: Int = ContentCoding.defaultLimit, _ message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let decoded = try ContentCoding.decode(body, contentEncoding: contentEncoding, limit: limit)
            Issue.record("decoded \(decoded.count) bytes instead of failing with \(message)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == .undecodableBody, sourceLocation: sourceLocation)
            #expect(error.description == message, sourceLocation: sourceLocation)
        }
    }
}

/// Raw DEFLATE written bit by bit, for streams that no compressor makes.
private struct DeflateBits {
    private var bytes: [UInt8] = []
    private var bitCount = 0

    var data: Data { Data(bytes) }

    /// `value`'s low `count` bits, lowest first: header fields and extra bits.
    mutating func number(_ value: Int, bits count: Int) {
        for index in 0..<count { bit(value >> index & 1) }
    }

    /// A Huffman code of `count` bits, highest first.
    mutating func code(_ value: Int, bits count: Int) {
        for index in (0..<count).reversed() { bit(value >> index & 1) }
    }

    mutating func fixedBlockHeader(isFinal: Bool) {
        number(isFinal ? 1 : 0, bits: 1)
        number(1, bits: 2)
    }

    /// A literal/length symbol in the fixed code (RFC 1951 §3.2.6).
    mutating func fixedLiteral(_ symbol: Int) {
        switch symbol {
        case 0...143: code(0x30 + symbol, bits: 8)
        case 144...255: code(0x190 + symbol - 144, bits: 9)
        case 256...279: code(symbol - 256, bits: 7)
        default: code(0xC0 + symbol - 280, bits: 8)
        }
    }

    private mutating func bit(_ value: Int) {
        if bitCount % 8 == 0 { bytes.append(0) }
        bytes[bytes.count - 1] |= UInt8(value) << UInt8(bitCount % 8)
        bitCount += 1
    }
}
