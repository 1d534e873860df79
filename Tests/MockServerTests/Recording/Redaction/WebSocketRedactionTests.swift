import Foundation
@testable import MockServer
import Testing

/// A recorded WebSocket conversation redacted as an exchange is: headers, JSON text messages member by member,
/// the upgrade request's secrets where the server repeats them; binary messages left alone.
@Suite struct WebSocketRedactionTests {
    private static func conversation() -> Interaction {
        let request = RecordedRequest(method: "GET", target: "/socket", headers: ["Authorization": "Bearer abcdefghijklmnop"])
        let conversation = RecordedWebSocket(
            response: RecordedResponse(status: 101, headers: ["Upgrade": "websocket", "Connection": "Upgrade", "Set-Cookie": "sid=9"]),
            messages: [
                .init(from: .client, offsetMs: 0, .text(#"{"token": "t0p-s3cret", "pair": "BTC"}"#)),
                .init(from: .server, offsetMs: 5, .text("welcome, Bearer abcdefghijklmnop")),
                .init(from: .server, offsetMs: 9, .binary(Data("password=abc".utf8))),
            ],
            ending: .closed(by: .client, code: 1000, reason: "", offsetMs: 12))
        return Interaction(request: request, outcome: .webSocket(conversation))
    }

    @Test func textMessages_areRedactedAsBodies_binaryOnesLeftAlone() throws {
        // Given a conversation with a JSON secret from the client and the upgrade's credential echoed by the server
        var interaction = Self.conversation()
        // When redacted
        let count = RedactionRules.default.redact(&interaction)
        // Then the JSON member and the echo are placeholders, every other byte kept
        let redacted = try #require(interaction.webSocket)
        #expect(redacted.messages[0].content == .text(#"{"token": "<redacted>", "pair": "BTC"}"#))
        #expect(redacted.messages[1].content == .text("welcome, <redacted>"))
        #expect(redacted.messages[2].content == .binary(Data("password=abc".utf8)))
        #expect(redacted.response.headers["Set-Cookie"] == "sid=<redacted>")
        #expect(redacted.ending == .closed(by: .client, code: 1000, reason: "", offsetMs: 12))
        #expect(count == RedactionCount(headers: 2, queryParameters: 0, bodyFields: 2))
        // And lint finds what redact replaces, by message
        let findings = RedactionRules.default.findings(in: Self.conversation()).map(\.location)
        #expect(findings.contains("client message 0 $.token"))
        #expect(findings.contains("server message 1"))
        // And a second pass changes nothing
        #expect(RedactionRules.default.redact(&interaction) == RedactionCount())
    }
}
