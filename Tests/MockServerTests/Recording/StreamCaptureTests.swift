import Foundation
@testable import MockServer
import Testing

@Suite struct StreamCaptureTests {
    @Test func events_splitAtBlankLines_storedAsFieldsOnlyWhenTheyWriteBackTheSameBytes() {
        // GIVEN a stream arriving in pieces that split events, with a CRLF event and an unfinished tail
        let capture = StreamCapture(.events)
        var parts: [RecordedStream.Part] = []
        var handedOut: [Int] = []
        for piece in ["data: a\n", "\nevent: x\nid: 1\ndata: b\ndata: c\n\n: ping\n\ndata:d\n\n", "data: e\r\n\r\n", "data: tail"] {
            let completed = capture.add(Data(piece.utf8))
            handedOut.append(completed.count)
            parts += completed
        }
        // WHEN it ends
        parts += capture.finish()
        // THEN every event is handed out by the piece that completes it; fields only where they reproduce
        // the bytes, exact text otherwise
        #expect(handedOut == [0, 4, 1, 0])
        #expect(
            parts.map(\.content) == [
                .event(ServerSentEventFields(data: "a")),
                .event(ServerSentEventFields(event: "x", id: "1", data: "b\nc")),
                .event(ServerSentEventFields(comment: "ping")),
                .text("data:d\n\n"),
                .text("data: e\r\n\r\n"),
                .text("data: tail"),
            ])
        #expect(
            String(decoding: RecordedStream(parts).data, as: UTF8.self)
                == "data: a\n\nevent: x\nid: 1\ndata: b\ndata: c\n\n: ping\n\ndata:d\n\ndata: e\r\n\r\ndata: tail")
        #expect(zip(parts, parts.dropFirst()).allSatisfy { $0.offsetMs <= $1.offsetMs })
        #expect(capture.byteCount == RecordedStream(parts).data.count)
    }

    @Test func chunks_onePartPerPiece_aCharacterSplitBetweenPiecesHeldForTheNext() {
        // GIVEN a chunked text stream whose second piece ends inside a two-byte character, then bytes that are
        // not UTF-8 at all
        let capture = StreamCapture(.chunks)
        let pieces: [[UInt8]] = [Array("{\"n\":1}\n".utf8), Array("{\"s\":\"caf".utf8) + [0xC3], [0xA9] + Array("\"}\n".utf8), [0xFF, 0x00]]
        // WHEN they pass
        let handedOut = pieces.map { capture.add(Data($0)).map(\.content) }
        // THEN each piece is one part, text where it is UTF-8, with the split character whole in the later part
        #expect(handedOut == [[.text("{\"n\":1}\n")], [.text("{\"s\":\"caf")], [.text("é\"}\n")], [.binary(Data([0xFF, 0x00]))]])
        #expect(capture.finish().isEmpty)
    }

    @Test func chunks_aCharacterStillSplitAtTheEnd_isTheFinalPart() {
        // GIVEN a piece ending inside a character, and nothing after it
        let capture = StreamCapture(.chunks)
        #expect(capture.add(Data([0x61, 0xE2, 0x82])).map(\.content) == [.text("a")])
        // WHEN the stream ends THEN the held bytes come out as they are
        #expect(capture.finish().map(\.content) == [.binary(Data([0xE2, 0x82]))])
    }
}
