import Foundation
@testable import MockServer
@testable import recorder
import Testing

@Suite struct InteractionRenderingTests {
    static let cassette = Cassette(
        name: "shop", upstream: "https://shop.example.com",
        interactions: [
            Interaction(
                request: RecordedRequest(method: "GET", target: "/cart?page=1", headers: ["Accept": "application/json"]),
                response: RecordedResponse(
                    status: 200, headers: ["Content-Type": "application/json"], body: .json(try! CassetteJSON(parsing: #"{"items": [1, 2], "total": 3.50}"#))),
                recordedAt: Date(timeIntervalSince1970: 1_795_356_191), durationMs: 84),
            Interaction(
                request: RecordedRequest(
                    method: "POST", target: "/login", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                    body: .text("user=ann&password=<redacted>")),
                response: RecordedResponse(status: 302, headers: ["Location": "/account"]), durationMs: 1210),
            Interaction(
                request: RecordedRequest(method: "GET", target: "/dot.png"),
                response: RecordedResponse(status: 299, headers: ["Content-Type": "image/png"], body: .binary(Data((0..<70).map { UInt8($0 + 40) })))),
            Interaction(request: RecordedRequest(method: "DELETE", target: "/cart"), failure: TransportFailure(kind: .timeout, message: "no answer in 30 s")),
        ])

    @Test func list_alignsOneLinePerInteraction_underAHeader() {
        #expect(
            InteractionTable.lines(for: Self.cassette) == [
                "shop: 4 interactions, recorded, upstream https://shop.example.com",
                "  0  GET     /cart?page=1  200      28 bytes    84 ms",
                "  1  POST    /login        302       0 bytes  1210 ms",
                "  2  GET     /dot.png      299      70 bytes        -",
                "  3  DELETE  /cart         timeout         -        -",
            ])
    }

    @Test func list_namesAGraphQLRequestsOperation_besideItsTarget() {
        let cassette = Cassette(
            name: "gh",
            interactions: [
                .stub("POST", "/graphql", json: ["data": [:]], requestBody: .json(["query": "query Viewer { viewer { login } }"])),
                .stub("POST", "/graphql", json: ["data": [:]], requestBody: .json(["query": "{ a }", "operationName": "Named"])),
                .stub("GET", "/search?query=shoes", json: [:]),
            ])
        #expect(
            InteractionTable.lines(for: cassette) == [
                "gh: 3 interactions, recorded, no upstream",
                "  0  POST  /graphql Viewer      200  11 bytes  -",
                "  1  POST  /graphql Named       200  11 bytes  -",
                "  2  GET   /search?query=shoes  200   2 bytes  -",
            ])
    }

    @Test func show_prettyPrintsJSON() {
        #expect(
            InteractionText.render(Self.cassette.interactions[0], index: 0, cassette: Self.cassette) == """
                interaction 0 of shop, recorded 2026-11-22T14:03:11Z in 84 ms

                GET /cart?page=1
                Accept: application/json

                200 OK
                Content-Type: application/json

                {
                  "items" : [
                    1,
                    2
                  ],
                  "total" : 3.50
                }
                """)
    }

    @Test func show_keepsTextAsIs_andAResponseWithoutBody() {
        #expect(
            InteractionText.render(Self.cassette.interactions[1], index: 1, cassette: Self.cassette) == """
                interaction 1 of shop, recorded at an unknown time in 1210 ms

                POST /login
                Content-Type: application/x-www-form-urlencoded

                user=ann&password=<redacted>

                302 Found
                Location: /account
                """)
    }

    @Test func show_summarizesBinaryAsSizeAndHexDump_andUnknownStatusesAsNumbers() {
        #expect(
            InteractionText.render(Self.cassette.interactions[2], index: 2, cassette: Self.cassette) == """
                interaction 2 of shop, recorded at an unknown time

                GET /dot.png

                299
                Content-Type: image/png

                70 bytes of binary data (image/png), the first 64:
                  00000000  28 29 2a 2b 2c 2d 2e 2f  30 31 32 33 34 35 36 37  |()*+,-./01234567|
                  00000010  38 39 3a 3b 3c 3d 3e 3f  40 41 42 43 44 45 46 47  |89:;<=>?@ABCDEFG|
                  00000020  48 49 4a 4b 4c 4d 4e 4f  50 51 52 53 54 55 56 57  |HIJKLMNOPQRSTUVW|
                  00000030  58 59 5a 5b 5c 5d 5e 5f  60 61 62 63 64 65 66 67  |XYZ[\\]^_`abcdefg|
                """)
    }

    @Test func show_namesATransportFailure() {
        #expect(
            InteractionText.render(Self.cassette.interactions[3], index: 3, cassette: Self.cassette) == """
                interaction 3 of shop, recorded at an unknown time

                DELETE /cart

                transport failure: timeout (no answer in 30 s)
                """)
    }

    static let conversation = Interaction(
        request: RecordedRequest(method: "GET", target: "/prices", headers: ["Upgrade": "websocket"]),
        outcome: .webSocket(
            RecordedWebSocket(
                response: RecordedResponse(status: 101, headers: ["Upgrade": "websocket", "Connection": "Upgrade"]),
                messages: [
                    .init(from: .client, offsetMs: 0, .text(#"{"subscribe":"BTC"}"#)),
                    .init(from: .server, offsetMs: 12, .binary(Data([0, 1, 255]))),
                ],
                ending: .closed(by: .server, code: 4001, reason: "market closed", offsetMs: 20))),
        durationMs: 20)

    @Test func list_showsAConversation_asAnUpgrade_withItsMessageCount() {
        let cassette = Cassette(name: "ticker", interactions: [Self.conversation])
        #expect(
            InteractionTable.lines(for: cassette) == [
                "ticker: 1 interaction, recorded, no upstream",
                "  0  GET  /prices  101 WebSocket  2 messages  20 ms",
            ])
    }

    @Test(arguments: [
        (RecordedWebSocket.Ending.closed(by: .server, code: 4001, reason: "market closed", offsetMs: 20), #"+20 ms server closed with 4001 "market closed""#),
        (.dropped(by: .client, offsetMs: 30), "+30 ms client dropped the connection"),
        (.unfinished, "(still open when the recording stopped)"),
    ])
    func show_listsAConversationsMessages_andHowItEnded(ending: RecordedWebSocket.Ending, last: String) {
        var interaction = Self.conversation
        guard case .webSocket(var conversation) = interaction.outcome else { return }
        conversation.ending = ending
        interaction.outcome = .webSocket(conversation)
        #expect(
            InteractionText.render(interaction, index: 0, cassette: Cassette(name: "ticker")) == """
                interaction 0 of ticker, recorded at an unknown time in 20 ms

                GET /prices
                Upgrade: websocket

                101 Switching Protocols
                Upgrade: websocket
                Connection: Upgrade

                +0 ms client text: {"subscribe":"BTC"}
                +12 ms server binary, 3 bytes: AAH/
                \(last)
                """)
    }

    @Test func hexDump_padsAShortLastLine_andShowsUnprintableBytesAsDots() {
        #expect(
            BodyText.hexDump(Data([0x00, 0x41, 0x0A, 0xFF, 0x42])) == [
                "  00000000  00 41 0a ff 42                                    |.A..B|"
            ])
    }
}
