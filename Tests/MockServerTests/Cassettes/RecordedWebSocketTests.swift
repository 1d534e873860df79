import Foundation
@testable import MockServer
import Testing

@Suite struct RecordedWebSocketTests {
    static func cassette(version: Int = 3, webSocket: String) -> String {
        #"{"format": "servicereplay-cassette", "version": \#(version), "name": "t", "upstream": "http://127.0.0.1:9", "interactions": [{"recordedAt": "2026-12-05T10:00:00Z", "request": {"method": "GET", "target": "/chat", "headers": [["Upgrade", "websocket"]]}, "webSocket": "#
            + webSocket + "}]}"
    }

    static let conversation = #"""
        {"response": {"status": 101, "headers": [["Upgrade", "websocket"], ["Connection", "Upgrade"], ["Sec-WebSocket-Accept", "x"]]},
         "messages": [{"from": "client", "text": "hi"}, {"from": "server", "offsetMs": 12, "text": "{\"echo\":\"hi\"}"},
                      {"from": "server", "offsetMs": 40, "base64": "AAEC/w=="}],
         "close": {"by": "server", "code": 4001, "reason": "bye", "offsetMs": 52}}
        """#

    @Test func conversation_readsWithDirectionsOffsetsAndEnding_andWritesBackEqual() throws {
        // GIVEN a hand-written conversation
        let cassette = try Cassette(jsonData: Data(Self.cassette(webSocket: Self.conversation).utf8), source: "t.json")
        // WHEN it is read THEN every message keeps its side, offset and payload, and the close its code and reason
        let recorded = try #require(cassette.interactions.first?.webSocket)
        #expect(recorded.messages.map(\.from) == [.client, .server, .server])
        #expect(recorded.messages.map(\.offsetMs) == [0, 12, 40])
        #expect(recorded.messages[2].content == .binary(Data([0, 1, 2, 255])))
        #expect(recorded.ending == .closed(by: .server, code: 4001, reason: "bye", offsetMs: 52))
        #expect(recorded.messageCounts == (client: 1, server: 2))
        // AND its upgrade answer is the interaction's response
        #expect(cassette.interactions.first?.response?.status == 101)
        // AND it survives its own file format unchanged, written as the current version
        let encoded = cassette.encoded()
        let again = try Cassette(jsonData: encoded, source: "t.json")
        #expect(again == cassette)
        #expect(again.encoded() == encoded)
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""version" : 3"#))
    }

    @Test(arguments: [
        (#"{"by": "client", "offsetMs": 60}"#, RecordedWebSocket.Ending.dropped(by: .client, offsetMs: 60)),
        ("null", .unfinished),
    ])
    func endings_otherThanAClose_readAndWriteBack(ending: String, expected: RecordedWebSocket.Ending) throws {
        let body = ending == "null" ? #"{"response": {"status": 101}}"# : #"{"response": {"status": 101}, "dropped": \#(ending)}"#
        let cassette = try Cassette(jsonData: Data(Self.cassette(webSocket: body).utf8), source: "t.json")
        #expect(cassette.interactions.first?.webSocket?.ending == expected)
        #expect(try Cassette(jsonData: cassette.encoded(), source: "t.json") == cassette)
    }

    @Test(arguments: [
        (#"{"response": {"status": 200}}"#, "expected 101"),
        (
            #"{"response": {"status": 101}, "messages": [{"from": "server", "offsetMs": 5, "text": "a"}, {"from": "server", "offsetMs": 4, "text": "b"}]}"#,
            "not less than the previous message's"
        ),
        (#"{"response": {"status": 101}, "messages": [{"from": "proxy", "text": "a"}]}"#, "expected client or server"),
        (#"{"response": {"status": 101}, "messages": [{"from": "client", "text": "a", "base64": "YQ=="}]}"#, "exactly one of \"text\" or \"base64\""),
        (#"{"response": {"status": 101}, "close": {"by": "server", "code": 999}}"#, "from 1000 to 4999"),
        (#"{"response": {"status": 101}, "close": {"by": "server"}, "dropped": {"by": "server"}}"#, "at most one of"),
        (
            #"{"response": {"status": 101}, "messages": [{"from": "client", "offsetMs": 9, "text": "a"}], "close": {"by": "client", "offsetMs": 3}}"#,
            "not less than the last message's"
        ),
        (#"{"response": {"status": 101}, "frames": []}"#, "frames"),
    ])
    func invalidConversation_isRefusedWithTheField(conversation: String, expected: String) throws {
        let error = #expect(throws: MockServerError.self) {
            try Cassette(jsonData: Data(Self.cassette(webSocket: conversation).utf8), source: "t.json")
        }
        #expect(error?.description.contains(expected) == true, "\(error?.description ?? "")")
    }

    @Test func olderVersion_loads_andIsWrittenAsTheCurrentOne() throws {
        let file =
            #"{"format": "servicereplay-cassette", "version": 2, "name": "t", "interactions": [{"request": {"method": "GET", "target": "/a"}, "response": {"status": 200}}]}"#
        let cassette = try Cassette(jsonData: Data(file.utf8), source: "t.json")
        #expect(cassette.formatVersion == 2)
        #expect(Cassette.currentVersion == 3)
        #expect(try Cassette(jsonData: cassette.encoded(), source: "t.json").formatVersion == 3)
    }

    @Test func har_carriesTheMessagesAsBrowsersWriteThem_andImportsBackEqual() throws {
        // GIVEN the conversation exported to HAR
        let cassette = try Cassette(jsonData: Data(Self.cassette(webSocket: Self.conversation).utf8), source: "t.json")
        let document = try HARFixtures.throughBytes(try cassette.har())
        let entry = try #require(document.log.entries.first)
        // THEN the entry is marked a WebSocket, with send/receive messages, opcodes, and times from the upgrade's
        #expect(entry.resourceType == "websocket")
        let messages = try #require(entry.webSocketMessages)
        #expect(messages.map(\.type) == ["send", "receive", "receive"])
        #expect(messages.map(\.opcode) == [1, 1, 2])
        #expect(messages[2].data == "AAEC/w==")
        let start = try #require(CassetteDate.parse("2026-12-05T10:00:00Z")).timeIntervalSince1970
        #expect(messages.map { (($0.time - start) * 1000).rounded() } == [0, 12, 40])
        #expect(entry.webSocketEnding == HARWebSocketEnding(kind: "close", by: "server", code: 4001, reason: "bye", offsetMs: 52))
        // AND importing it gives the same cassette back
        let imported = try Cassette.importing(document)
        #expect(imported.cassette.encoded() == cassette.encoded())
    }
}

extension RecordedWebSocketTests {
    @Test func har_conversationWithoutMessages_keepsItsEndingsOffset() throws {
        // A socket the server closed at once, before any message: nothing to count the ending's offset from but the upgrade
        let cassette = try Cassette(
            jsonData: Data(Self.cassette(webSocket: #"{"response": {"status": 101}, "close": {"by": "server", "code": 1008, "offsetMs": 0}}"#).utf8),
            source: "t.json")
        let imported = try Cassette.importing(try HARFixtures.throughBytes(try cassette.har()))
        #expect(imported.cassette.interactions.first?.webSocket?.ending == .closed(by: .server, code: 1008, reason: "", offsetMs: 0))
    }
}
