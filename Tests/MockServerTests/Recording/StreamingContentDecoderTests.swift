import Foundation
@testable import MockServer
import Testing
import ServiceReplayTestSupport

/// A coded body decoded as it arrives: whatever the pieces, the same bytes as decoding it whole, as soon as
/// their blocks are complete; and the same sentences when it is not valid.
@Suite struct StreamingContentDecoderTests {
    /// The vectors in one coding (a body coded twice is collected whole).
    static let singleCoding = ContentCodingVector.all.filter { !$0.contentEncoding.contains(",") }

    /// Feeds `body` in pieces of `size` bytes and returns the output of each piece.
    private func decode(_ body: Data, _ contentEncoding: String, pieces size: Int, limit: Int = ContentCoding.defaultLimit) throws -> [Data] {
        var decoder = try #require(StreamingContentDecoder(contentEncoding: contentEncoding, limit: limit))
        var outputs: [Data] = []
        var start = body.startIndex
        while start < body.endIndex {
            let end = min(body.endIndex, start + size)
            outputs.append(try decoder.add(body[start..<end]))
            start = end
        }
        try decoder.finish()
        return outputs
    }

    @Test(arguments: singleCoding)
    func anyPieces_decodeToThePlainBytes(vector: ContentCodingVector) throws {
        // At most about 300 pieces: a block still arriving is decoded again with each piece.
        let smallest = max(1, vector.encoded.count / 300)
        for size in Set([smallest, max(smallest, 7), vector.encoded.count]) {
            let outputs = try decode(vector.encoded, vector.contentEncoding, pieces: size)
            #expect(Data(outputs.joined()) == vector.plain, "pieces of \(size) bytes")
        }
    }

    @Test(arguments: ["gzipMultiMember", "gzipAllHeaderFields", "zlibStored", "rawFixedMatches"])
    func twoPieces_splitAnywhere_decodeToThePlainBytes(vector: String) throws {
        let vector = ContentCodingVector.named(vector)
        for split in 1..<vector.encoded.count {
            var decoder = try #require(StreamingContentDecoder(contentEncoding: vector.contentEncoding))
            var output = try decoder.add(vector.encoded.prefix(split))
            output += try decoder.add(vector.encoded.dropFirst(split))
            try decoder.finish()
            #expect(output == vector.plain, "split at \(split)")
        }
    }

    @Test func flushedStream_givesEachEvent_assoonAsItsBlockArrives() throws {
        // The blocks of later events point back into earlier ones, across pieces.
        var decoder = try #require(StreamingContentDecoder(contentEncoding: "gzip"))
        let events = GzipEventStream.events
        for (index, piece) in GzipEventStream.gzipPieces.enumerated() {
            let output = try decoder.add(piece)
            #expect(String(decoding: output, as: UTF8.self) == (index < events.count ? events[index] : ""), "piece \(index)")
        }
        try decoder.finish()
    }

    @Test(arguments: [
        ("gzip", true), ("x-gzip", true), ("deflate", true), ("identity, GZIP", true), ("br", false),
        ("gzip, gzip", false), ("", false), ("identity", false), ("gzip, br", false),
    ])
    func onlyOneKnownCoding_isDecodedAsItArrives(contentEncoding: String, streams: Bool) {
        #expect((StreamingContentDecoder(contentEncoding: contentEncoding) != nil) == streams)
    }

    @Test(arguments: ["gzipFixed", "gzipMultiMember", "zlibDynamic", "rawFixedMatches"])
    func bodyEndingEarly_failsAtTheEnd_asTruncated_unlessItEndsWithAMember(vector: String) throws {
        let vector = ContentCodingVector.named(vector)
        for length in 1..<vector.encoded.count {
            let prefix = vector.encoded.prefix(length)
            var decoder = try #require(StreamingContentDecoder(contentEncoding: vector.contentEncoding))
            let output = try decoder.add(prefix)
            // A gzip body may end after any whole member.
            if let whole = try? ContentCoding.decode(prefix, contentEncoding: vector.contentEncoding) {
                try decoder.finish()
                #expect(output == whole, "cut at \(length)")
                continue
            }
            do {
                try decoder.finish()
                Issue.record("cut at \(length): no error")
            } catch {
                #expect(error.code == .undecodableBody)
                #expect(error.reason == "The upstream's \(vector.contentEncoding) body is truncated.")
            }
        }
    }

    @Test(
        arguments: [
            ("gzipFixed", -8, 0x40, "The upstream's gzip body is corrupt: the CRC-32 does not match."),
            ("gzipDynamic", -1, 0x40, "The upstream's gzip body is corrupt: the length in its trailer does not match."),
            ("gzipFixed", 3, 0x20, "The upstream's gzip body is corrupt: its header sets reserved flags."),
            ("zlibDynamic", -1, 0x40, "The upstream's deflate body is corrupt: the Adler-32 checksum does not match."),
            ("gzipFixed", 0, 0x01, "The upstream's gzip body is not gzip data: it does not start with the gzip signature."),
        ] as [(String, Int, UInt8, String)])
    func changedByte_failsAsWhenDecodedWhole(vector: String, offset: Int, change: UInt8, message: String) throws {
        let vector = ContentCodingVector.named(vector)
        var body = vector.encoded
        body[offset < 0 ? body.count + offset : offset] ^= change
        var decoder = try #require(StreamingContentDecoder(contentEncoding: vector.contentEncoding))
        do {
            for byte in body { _ = try decoder.add(Data([byte])) }
            try decoder.finish()
            Issue.record("no error")
        } catch {
            #expect(error.reason == message)
        }
    }

    @Test(arguments: ["gzipFixed", "zlibDynamic", "rawDynamic"])
    func bytesAfterTheEnd_fail(vector: String) throws {
        let vector = ContentCodingVector.named(vector)
        var decoder = try #require(StreamingContentDecoder(contentEncoding: vector.contentEncoding))
        #expect(try decoder.add(vector.encoded) == vector.plain)
        do {
            _ = try decoder.add(Data([0x00]))
            Issue.record("no error")
        } catch {
            #expect(error.reason == "The upstream's \(vector.contentEncoding) body is corrupt: other bytes follow the end of the compressed data.")
        }
    }

    @Test func outputLimit_reachedExactlyByOnePiece_refusesTheNextBytes() throws {
        // The first flushed event fills the limit exactly; the next one must not get a single byte through.
        let first = Data(GzipEventStream.events[0].utf8)
        var decoder = try #require(StreamingContentDecoder(contentEncoding: "gzip", limit: first.count))
        #expect(try decoder.add(GzipEventStream.gzipPieces[0]) == first)
        #expect(throws: MockServerError.self) { try decoder.add(GzipEventStream.gzipPieces[1]) }
    }

    @Test func outputLimit_allowsExactlyThePlainSize_andNoMore() throws {
        let vector = ContentCodingVector.named("gzipDynamic")
        let exact = try decode(vector.encoded, "gzip", pieces: 64, limit: vector.plain.count)
        #expect(Data(exact.joined()) == vector.plain)
        #expect(throws: MockServerError.self) { try decode(vector.encoded, "gzip", pieces: 64, limit: vector.plain.count - 1) }
    }
}
