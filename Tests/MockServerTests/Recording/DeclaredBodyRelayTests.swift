import Foundation
@testable import MockServer
@testable import MockServerWire
import ServiceReplayTestSupport
import Testing

/// Record mode in front of an upstream whose body has a declared length: the client gets the bytes as they
/// arrive, under the upstream's `Content-Length`, and the cassette holds the exchange as a held body gave it.
@Suite(.timeLimit(.minutes(1))) struct DeclaredBodyRelayTests {
    struct HeadCase: Sendable, CustomTestStringConvertible {
        let name: String
        let status: Int
        let fields: [(name: String, value: String)]
        let passedOn: Bool
        var testDescription: String { name }
    }

    static let headCases = [
        HeadCase(name: "200 with a length", status: 200, fields: [("Content-Length", "10")], passedOn: true),
        HeadCase(name: "404 with a length", status: 404, fields: [("Content-Length", "3")], passedOn: true),
        HeadCase(name: "repeated equal lengths", status: 200, fields: [("Content-Length", "10, 10")], passedOn: true),
        HeadCase(name: "no length", status: 200, fields: [("Content-Type", "text/plain")], passedOn: false),
        HeadCase(name: "length 0", status: 200, fields: [("Content-Length", "0")], passedOn: false),
        HeadCase(name: "204", status: 204, fields: [("Content-Length", "10")], passedOn: false),
        HeadCase(name: "304 giving the resource's length", status: 304, fields: [("Content-Length", "10")], passedOn: false),
        HeadCase(name: "gzip-coded", status: 200, fields: [("Content-Length", "10"), ("Content-Encoding", "gzip")], passedOn: false),
        HeadCase(name: "chunked", status: 200, fields: [("Content-Length", "10"), ("Transfer-Encoding", "chunked")], passedOn: false),
        HeadCase(name: "invalid length", status: 200, fields: [("Content-Length", "ten")], passedOn: false),
    ]

    @Test(arguments: headCases)
    func onlyABodyOfDeclaredLength_withoutCoding_isPassedOnAsItArrives(_ head: HeadCase) throws {
        let relay = DeclaredBodyRelay.start(status: head.status, fields: head.fields)
        #expect((relay != nil) == head.passedOn)
        if let relay {
            // The client's head is the one a held body of that length is sent with
            #expect(relay.live.head.headers["Content-Length"] == String(relay.length))
            #expect(relay.live.declaredLength == relay.length)
        }
    }

    @Test func slowBody_reachesTheClientBeforeItsLastByte_andIsRecordedAsAHeldBodyWas() async throws {
        // GIVEN an upstream that sends its head and the first 4 bytes of a 10-byte body, and the rest only once
        // the test has seen those reach the client
        let body = Data("0123456789".utf8)
        let upstream = try ScriptedUpstream()
        upstream.send(Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Trace: t1\r\nContent-Length: 10\r\n\r\n".utf8) + body.prefix(4))
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("slow.json")
        try await withRecordingServer(upstream: upstream.baseURL, file: file, timeout: .seconds(600)) { server, base in
            let client = try RawHTTPClient(base)
            defer { client.close() }
            // WHEN a client asks through the recording server
            try client.send("GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n")
            // THEN it has the head and the first bytes while the upstream holds the rest back
            let first = String(decoding: try await client.read(through: "\r\n\r\n0123"), as: UTF8.self)
            #expect(first.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Trace: t1\r\nContent-Length: 10\r\n"))
            // (framed exactly, so the connection may carry the next request)
            #expect(!first.lowercased().contains("transfer-encoding"))
            #expect(!first.lowercased().contains("connection: close"))
            // WHEN the upstream sends the rest
            upstream.send(body.dropFirst(4))
            upstream.hangUp()
            // THEN the client gets it
            #expect(try await client.read(through: "456789") == Data("456789".utf8))
            #expect(server.journal.entries.map(\.outcome.description) == ["recorded (200)"])
        }
        // AND the cassette holds what a body held until its end recorded: the same response, byte for byte
        let recorded = try #require(try Cassette.load(from: file).interactions.first)
        let held = RecordedResponse(
            HTTPResponse(
                status: 200,
                headers: HTTPHeaders(pairs: [("Content-Type", "text/plain"), ("X-Trace", "t1"), ("Content-Length", "10")]),
                body: body))
        #expect(recorded.response == held)
        #expect(recorded.failure == nil)
    }

    @Test func redactedBody_reachesTheClientLive_andIsRecordedRedacted() async throws {
        // GIVEN an upstream that echoes a JSON body holding a token
        let live = Data(#"{"token":"live-secret-4711","user":"ann"}"#.utf8)
        try await withUpstream { upstream, _ in
            let cassette = try await withRecordingServer(upstream: upstream) { server, base in
                // WHEN the client sends it through the recording server
                let response = try await rawExchange(
                    base, "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json", body: live)
                // THEN it gets the upstream's very bytes, secret included
                let sameBytes = response.body == live
                #expect(sameBytes)
                #expect(response.headers["Content-Length"] == String(live.count))
                return try #require(server.recordedCassette)
            }
            // AND the cassette holds the body with the secret redacted
            let recorded = try #require(cassette.interactions.first?.response?.body.data)
            let text = String(decoding: recorded, as: UTF8.self)
            #expect(!text.contains("live-secret-4711"))
            #expect(text.contains(Cassette.redactionPlaceholder))
        }
    }
}
