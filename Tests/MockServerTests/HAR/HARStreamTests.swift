import Foundation
@testable import MockServer
import Testing

/// A HAR entry's `content._stream`: what an import accepts, and what it refuses with one sentence naming
/// the entry and what is wrong.
@Suite struct HARStreamTests {
    typealias Part = HARStream.Part

    /// A stream record with `parts` and `ending`.
    static func stream(_ parts: [Part], ending: String? = nil) -> HARStream {
        var stream = HARStream(RecordedStream([]))
        stream.parts = parts
        stream.ending = ending
        return stream
    }

    /// A document whose second entry (entry 1) answers with `stream` and `text` as its content; the first is plain.
    static func document(_ stream: HARStream, text: String) -> HARDocument {
        let plain = HARImportTests.entry(url: "http://h/plain", response: HARImportTests.response(text: "ok"))
        var streamed = HARImportTests.entry(url: "http://h/stream")
        streamed.response.content = HARContent(size: text.utf8.count, mimeType: "text/event-stream", text: text, stream: stream)
        return HARImportTests.document(entries: [plain, streamed])
    }

    @Test(arguments: [
        // offsets that go backwards, from the first part (below 0) or from the one before
        ([Part(offsetMs: -1, text: "a")], nil as String?, "part 0: offsetMs -1 is negative or less than the part before"),
        ([Part(offsetMs: 50, text: "a"), Part(offsetMs: 49, text: "b")], nil, "part 1: offsetMs 49 is negative or less than the part before"),
        (
            [Part(offsetMs: 10, text: "a"), Part(offsetMs: 30, text: "b"), Part(offsetMs: 20, text: "c")], nil,
            "part 2: offsetMs 20 is negative or less than the part before"
        ),
        // a part of two kinds, of all three, or of none
        ([Part(offsetMs: 0, text: "a", base64: "YQ==")], nil, "part 0: expected exactly one of text, base64 or event"),
        (
            [Part(offsetMs: 0, text: "a"), Part(offsetMs: 0, base64: "YQ==", event: HARStream.Event(data: "a"))], nil,
            "part 1: expected exactly one of text, base64 or event"
        ),
        ([Part(offsetMs: 0, text: "a", event: HARStream.Event(data: "a"))], nil, "part 0: expected exactly one of text, base64 or event"),
        (
            [Part(offsetMs: 0, text: "a", base64: "YQ==", event: HARStream.Event(data: "a"))], nil,
            "part 0: expected exactly one of text, base64 or event"
        ),
        ([Part(offsetMs: 0)], nil, "part 0: expected exactly one of text, base64 or event"),
        ([Part(offsetMs: 0, base64: "%%")], nil, "part 0: base64 is not valid base64"),
        // an ending that is not broken or unfinished ("complete" is what an absent one means)
        ([Part(offsetMs: 0, text: "a")], "ended", "ending \"ended\" is not broken or unfinished"),
        ([Part(offsetMs: 0, text: "a")], "complete", "ending \"complete\" is not broken or unfinished"),
        ([Part(offsetMs: 0, text: "a")], "Broken", "ending \"Broken\" is not broken or unfinished"),
    ])
    func badStreamRecord_isRefused_namingTheEntry(parts: [Part], ending: String?, reason: String) {
        #expect(throws: MockServerError(code: .invalidField, entry: 1, reason: "response.content._stream " + reason)) {
            try Cassette(har: Self.document(Self.stream(parts, ending: ending), text: "a"))
        }
    }

    @Test(arguments: [(nil as String?, RecordedStream.Ending.complete), ("broken", .broken), ("unfinished", .unfinished)])
    func goodStreamRecord_isImported_withItsParts_offsets_andEnding(ending: String?, expected: RecordedStream.Ending) throws {
        // Given parts of every kind, two of them at the same offset
        let parts = [
            Part(offsetMs: 0, text: "data: a\n\n"), Part(offsetMs: 20, base64: "Yg=="),
            Part(offsetMs: 20, event: HARStream.Event(event: "e", id: "7", retry: 5, data: "c", comment: "n")),
        ]
        let fields = ServerSentEventFields(event: "e", id: "7", retry: 5, data: "c", comment: "n")
        let text = "data: a\n\nb" + fields.wireText
        // When imported
        let cassette = try Cassette(har: Self.document(Self.stream(parts, ending: ending), text: text))
        // Then the stream is the parts, in order, with their offsets and the ending
        let body = try #require(cassette.interactions.last?.response?.body)
        #expect(
            body
                == .stream(
                    RecordedStream(
                        [
                            RecordedStream.Part(offsetMs: 0, .text("data: a\n\n")), RecordedStream.Part(offsetMs: 20, .binary(Data("b".utf8))),
                            RecordedStream.Part(offsetMs: 20, .event(fields)),
                        ], ending: expected)))
    }

    @Test func partsAddingUpToOtherBytes_areRefused_namingTheEntry() {
        #expect(throws: MockServerError(code: .invalidField, entry: 1, reason: "response.content._stream parts do not add up to the bytes of content.text")) {
            try Cassette(har: Self.document(Self.stream([Part(offsetMs: 0, text: "a")]), text: "b"))
        }
    }
}
