import Foundation
@testable import MockServer
import Testing

@Suite struct RecordedStreamTests {
    static func cassette(body: String) -> String {
        #"{"format": "servicereplay-cassette", "version": 3, "name": "t", "interactions": [{"request": {"method": "GET", "target": "/events"}, "response": {"status": 200, "headers": [["Content-Type", "text/event-stream"]], "body": "#
            + body + "}}]}"
    }

    @Test func handWrittenStream_readsAsPartsWithOffsets_andWritesBackEqual() throws {
        // GIVEN a hand-written stream of an event, a comment, a multi-line event and raw text
        let file = Self.cassette(
            body:
                #"{"stream": [{"data": "one"}, {"offsetMs": 50, "comment": "keep-alive"}, {"offsetMs": 120, "event": "add", "id": "7", "retry": 3000, "data": "a\nb"}, {"offsetMs": 120, "text": "data: raw\n\n"}]}"#
        )
        // WHEN it is loaded
        let cassette = try Cassette(jsonData: Data(file.utf8), source: "t.json")
        // THEN each part has its offset and renders in the standard's syntax
        guard case .stream(let stream)? = cassette.interactions.first?.response?.body.form else {
            Issue.record("expected a stream body")
            return
        }
        #expect(stream.parts.map(\.offsetMs) == [0, 50, 120, 120])
        #expect(
            String(decoding: stream.data, as: UTF8.self)
                == "data: one\n\n: keep-alive\n\nevent: add\nid: 7\nretry: 3000\ndata: a\ndata: b\n\ndata: raw\n\n")
        // AND the cassette survives its own file format unchanged
        let again = try Cassette(jsonData: cassette.encoded(), source: "t.json")
        #expect(again == cassette)
        #expect(again.encoded() == cassette.encoded())
    }

    @Test(arguments: [RecordedStream.Ending.broken, .unfinished])
    func ending_isWrittenBesideTheParts_andReadBack(_ ending: RecordedStream.Ending) throws {
        // GIVEN a stream that did not end properly, written by hand
        let file = Self.cassette(body: #"{"ending": "\#(ending.rawValue)", "stream": [{"data": "one"}]}"#)
        // WHEN it is loaded THEN it has its ending, and writes back to the same bytes
        let cassette = try Cassette(jsonData: Data(file.utf8), source: "t.json")
        #expect(cassette.interactions.first?.response?.body == .stream(RecordedStream([.init(offsetMs: 0, .event(.init(data: "one")))], ending: ending)))
        let again = try Cassette(jsonData: cassette.encoded(), source: "t.json")
        #expect(again.encoded() == cassette.encoded())
        #expect(String(decoding: cassette.encoded(), as: UTF8.self).contains(#""ending" : "\#(ending.rawValue)""#))
    }

    @Test(arguments: [
        (
            #"{"stream": [{"data": "a"}], "ending": "cut"}"#,
            #"t.json: interaction 0: response.body.ending: expected one of complete, broken, unfinished, found "cut""#
        ),
        (
            #"{"stream": [{"offsetMs": 100, "data": "a"}, {"offsetMs": 50, "data": "b"}]}"#,
            #"t.json: interaction 0: response.body.stream[1].offsetMs: expected whole milliseconds of 0 or more, not less than the previous part's, found 50"#
        ),
        (
            #"{"stream": [{"data": "a", "text": "b"}]}"#,
            #"t.json: interaction 0: response.body.stream[0]: expected event fields (event, id, retry, data, comment), or "text", or "base64""#
        ),
        (
            #"{"stream": [{"offsetMs": 0, "date": "a"}]}"#,
            #"t.json: interaction 0: response.body.stream[0].date: unknown field; expected one of base64, comment, data, event, id, offsetMs, retry, text"#
        ),
    ])
    func badStream_failsNamingThePart(body: String, message: String) {
        do {
            _ = try Cassette(jsonData: Data(Self.cassette(body: body).utf8), source: "t.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == message)
        }
    }
}
