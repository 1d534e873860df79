import Foundation
@testable import ServiceKit
import ServiceReplayShared
import Testing

/// The parser against the WHATWG rules, each case fed whole and byte by byte.
@Suite struct ServerSentEventParserTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let stream: String
        let events: [ServerSentEvent]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "one event per blank line", stream: "data: one\n\ndata: two\n\n",
            events: [.init(data: "one"), .init(data: "two")]),
        Case(
            name: "multi-line data joined by LF", stream: "data: first\ndata:second\ndata\n\n",
            events: [.init(data: "first\nsecond\n")]),
        Case(
            name: "comments ignored", stream: ": keep-alive\ndata: x\n: between\n\n",
            events: [.init(data: "x")]),
        Case(
            name: "event type, default message", stream: "event: add\ndata: 1\n\ndata: 2\n\n",
            events: [.init(type: "add", data: "1"), .init(data: "2")]),
        Case(
            name: "id persists to later events", stream: "id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n",
            events: [
                .init(data: "a", lastEventID: "7"), .init(data: "b", lastEventID: "7"),
                .init(data: "c", lastEventID: ""),
            ]),
        Case(
            name: "id with NUL ignored", stream: "id: 1\ndata: a\n\nid: 2\u{0}\ndata: b\n\n",
            events: [.init(data: "a", lastEventID: "1"), .init(data: "b", lastEventID: "1")]),
        Case(
            name: "retry only with digits", stream: "retry: 1500\ndata: a\n\nretry: soon\ndata: b\n\n",
            events: [.init(data: "a", retry: 1500), .init(data: "b", retry: 1500)]),
        Case(
            name: "event without data not dispatched", stream: "event: ping\n\nid: 3\n\ndata: x\n\n",
            events: [.init(data: "x", lastEventID: "3")]),
        Case(
            name: "empty data line gives empty data", stream: "data\n\ndata:\n\n",
            events: [.init(data: ""), .init(data: "")]),
        Case(
            name: "one space after colon dropped, not two", stream: "data:  two spaces\n\n",
            events: [.init(data: " two spaces")]),
        Case(
            name: "CR and CRLF end lines", stream: "data: a\r\rdata: b\r\n\r\ndata: c\n\r\n",
            events: [.init(data: "a"), .init(data: "b"), .init(data: "c")]),
        Case(
            name: "unknown fields and space before colon ignored", stream: "foo: bar\ndata : no\ndata: yes\n\n",
            events: [.init(data: "yes")]),
        Case(
            name: "leading byte order mark skipped", stream: "\u{FEFF}data: a\n\n",
            events: [.init(data: "a")]),
        Case(
            name: "final event without blank line discarded", stream: "data: a\n\ndata: unfinished\n",
            events: [.init(data: "a")]),
        Case(name: "UTF-8 text kept", stream: "data: grüße 🚀\n\n", events: [.init(data: "grüße 🚀")]),
        Case(
            name: "CRLF ends one line, not two", stream: "data: a\r\ndata: b\r\n\r\n",
            events: [.init(data: "a\nb")]),
        Case(
            name: "byte order mark skipped only at the start of the stream",
            stream: "\u{FEFF}data: a\n\n\u{FEFF}data: b\n\n\n\u{FEFF}data: c\n\n",
            events: [.init(data: "a")]),
        Case(
            name: "retry of every ASCII digit", stream: "retry: 1234567890\ndata: a\n\n",
            events: [.init(data: "a", retry: 1_234_567_890)]),
        Case(
            name: "first colon splits, later colons are value", stream: "data: a: b\n\n",
            events: [.init(data: "a: b")]),
    ]

    @Test(arguments: cases)
    func parse_whole(_ testCase: Case) {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Data(testCase.stream.utf8)).map(ServerSentEvent.init) == testCase.events)
    }

    @Test(arguments: cases)
    func parse_byteByByte_sameEvents(_ testCase: Case) {
        // Splits every CRLF and every multi-byte character between two chunks.
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for byte in Data(testCase.stream.utf8) {
            events += parser.feed([byte]).map(ServerSentEvent.init)
        }
        #expect(events == testCase.events)
    }

    @Test func invalidUTF8_becomesReplacementCharacter() {
        var parser = ServerSentEventParser()
        let events = parser.feed(Data("data: a".utf8) + Data([0xFF]) + Data("b\n\n".utf8)).map(ServerSentEvent.init)
        #expect(events == [.init(data: "a\u{FFFD}b")])
    }

    @Test func bytesThatStartLikeAByteOrderMarkButEndTheLine_areAnUnknownField() {
        // EF BB is a cut-short character: U+FFFD, a field the standard ignores, not a mark to strip.
        var parser = ServerSentEventParser()
        let events = parser.feed(Data([0xEF, 0xBB, 0x0A]) + Data("data: a\n\n".utf8)).map(ServerSentEvent.init)
        #expect(events == [.init(data: "a")])
    }

    @Test func retryBeyondTheIntegerRange_isTheLargestInteger() {
        // All digits, so the standard sets the reconnection time; it must not read as "never asked".
        var parser = ServerSentEventParser()
        let events = parser.feed(Data("retry: 1500\ndata: a\n\nretry: 99999999999999999999\ndata: b\n\n".utf8))
        #expect(events.map(\.retry) == [1500, Int.max])
    }

    /// The tokenizer on its own, as the recording's cutting into events reads it: a line feed first in the
    /// stream is a blank line, and a comment is a comment, not a field with an empty name.
    @Test(arguments: [1, 1000])
    func lines_blankCommentAndFields(step: Int) {
        let bytes = Array("\n: note\ndata\r\nid: 1\r\r\n:\n".utf8)
        var lines = ServerSentEventLines()
        var seen: [ServerSentEventLines.Line] = []
        for start in stride(from: 0, to: bytes.count, by: step) {
            bytes[start..<min(start + step, bytes.count)].withUnsafeBufferPointer { lines.feed($0) { seen.append($0) } }
        }
        #expect(seen == [.blank, .comment("note"), .field(name: "data", value: ""), .field(name: "id", value: "1"), .blank, .comment("")])
    }

    @Test(arguments: [
        (
            "error event with JSON payload", ServerSentEvent(type: "error", data: #"{"error":{"type":"overloaded_error","message":"Overloaded"}}"#),
            WebServiceError.Service?.some(.errorPayload(code: "overloaded_error", message: "Overloaded"))
        ),
        ("error event with text", ServerSentEvent(type: "error", data: "gone"), .errorPayload(code: nil, message: "gone")),
        (
            "message with error object", ServerSentEvent(data: #"{"error":{"message":"boom","code":"server_error"}}"#),
            .errorPayload(code: "server_error", message: "boom")
        ),
        ("plain message", ServerSentEvent(data: #"{"choices":[]}"#), nil),
        ("text message", ServerSentEvent(data: "[DONE]"), nil),
    ])
    func commonServiceError(_ name: String, _ event: ServerSentEvent, _ expected: WebServiceError.Service?) {
        #expect(event.commonServiceError == expected, "\(name)")
    }
}
