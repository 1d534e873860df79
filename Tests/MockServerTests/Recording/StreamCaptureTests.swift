import Foundation
@testable import MockServer
import Testing

@Suite struct StreamCaptureTests {
    @Test func events_splitAtBlankLines_storedAsFieldsOnlyWhenTheyWriteBackTheSameBytes() {
        // GIVEN a stream arriving in pieces that split events, with a CRLF event and an unfinished tail
        let capture = StreamCapture()
        for piece in ["data: a\n", "\nevent: x\nid: 1\ndata: b\ndata: c\n\n: ping\n\ndata:d\n\n", "data: e\r\n\r\n", "data: tail"] {
            capture.add(Data(piece.utf8))
        }
        // WHEN it ends
        let stream = capture.finish()
        // THEN every event is one part; fields only where they reproduce the bytes, exact text otherwise
        #expect(stream.parts.map(\.content) == [
            .event(ServerSentEventFields(data: "a")),
            .event(ServerSentEventFields(event: "x", id: "1", data: "b\nc")),
            .event(ServerSentEventFields(comment: "ping")),
            .text("data:d\n\n"),
            .text("data: e\r\n\r\n"),
            .text("data: tail"),
        ])
        #expect(String(decoding: stream.data, as: UTF8.self)
                == "data: a\n\nevent: x\nid: 1\ndata: b\ndata: c\n\n: ping\n\ndata:d\n\ndata: e\r\n\r\ndata: tail")
        #expect(zip(stream.parts, stream.parts.dropFirst()).allSatisfy { $0.offsetMs <= $1.offsetMs })
    }
}
