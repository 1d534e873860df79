import Foundation
@testable import MockServer
import Testing

/// Record mode in-process: a CassetteServer forwarding to an upstream on loopback, recording every exchange.
@Suite struct RecordModeTests {
    struct BodyCase: Sendable, CustomTestStringConvertible {
        let path: String
        let bytes: Data
        let stored: RecordedBody
        var testDescription: String { path }
    }

    static let bodyCases = [
        BodyCase(path: "/json", bytes: FakeUpstream.json, stored: .json(try! CassetteJSON(parsing: FakeUpstream.json))),
        BodyCase(path: "/text", bytes: FakeUpstream.text, stored: .text("hello\nworld\n")),
        BodyCase(path: "/binary", bytes: FakeUpstream.png, stored: .binary(FakeUpstream.png)),
        BodyCase(path: "/gzip", bytes: FakeUpstream.json, stored: .json(try! CassetteJSON(parsing: FakeUpstream.json))),
    ]

    @Test(arguments: bodyCases)
    func record_givesTheClientTheUpstreamsBody_andSavesItDecoded_replayingTheSameBytes(_ body: BodyCase) async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("api.json")
        try await withUpstream { upstream, _ in
            try await withRecordingServer(upstream: upstream, file: file) { _, base in
                // When the client asks the proxy
                let response = try await rawExchange(base, "GET \(body.path) HTTP/1.1\r\nHost: localhost")
                // Then it gets the upstream's status and decoded body, framed for the client
                #expect(response.status == 200)
                #expect(response.body == body.bytes)
                #expect(response.headers["Content-Encoding"] == nil)
                #expect(response.headers["Content-Length"] == String(body.bytes.count))
            }
        }
        // And the cassette on disk holds the body decoded, without wire-level headers, its Content-Length
        // where the upstream put it, giving the size of the body stored
        let cassette = try Cassette.load(from: file)
        let recorded = try #require(cassette.interactions.first?.response)
        #expect(cassette.interactions.count == 1)
        #expect(recorded.body == body.stored)
        for header in ["Content-Encoding", "Transfer-Encoding", "Connection"] {
            #expect(!recorded.headers.contains(header), "\(header) was recorded")
        }
        #expect(recorded.headers["Content-Length"] == String(body.bytes.count))
        // And replaying it gives the client the same bytes
        try await withMockServer(cassettes: [cassette], configuration: .init(faults: .none, strict: true)) { server in
            let replayed = try await rawExchange(server.baseURL!, "GET \(body.path) HTTP/1.1\r\nHost: localhost")
            #expect(replayed.status == 200)
            #expect(replayed.body == body.bytes)
        }
    }

    @Test func redirect_isGivenToTheClientAsIs_notFollowed() async throws {
        try await withUpstream { upstream, log in
            try await withRecordingServer(upstream: upstream) { server, base in
                let response = try await rawExchange(base, "GET /redirect HTTP/1.1\r\nHost: localhost")
                #expect(response.status == 302)
                #expect(response.headers["Location"] == "/json")
                #expect(response.bodyText == "moved")
                #expect(log.all.map(\.path) == ["/redirect"])
                #expect(server.recordedCassette?.interactions.map(\.response?.status) == [302])
            }
        }
    }

    @Test func head_and204_areForwardedAndRecordedWithoutBodies() async throws {
        try await withUpstream { upstream, log in
            try await withRecordingServer(upstream: upstream) { server, base in
                let head = try await rawExchange(base, "HEAD /json HTTP/1.1\r\nHost: localhost")
                let empty = try await rawExchange(base, "DELETE /no-content HTTP/1.1\r\nHost: localhost")
                #expect(head.status == 200)
                #expect(head.headers["Content-Length"] == String(FakeUpstream.json.count))
                #expect(head.body.isEmpty)
                #expect(empty.status == 204)
                #expect(log.all.map(\.method) == ["HEAD", "DELETE"])
                let recorded = try #require(server.recordedCassette).interactions.compactMap(\.response)
                #expect(recorded.map(\.status) == [200, 204])
                #expect(recorded.map(\.body) == [.empty, .empty])
                // A HEAD answer keeps the resource's size, as replay then announces it.
                #expect(recorded[0].headers["Content-Length"] == String(FakeUpstream.json.count))
            }
        }
    }

    @Test func repeatedSetCookie_reachTheClientIntact_andAreRecordedOneLineEach_redacted() async throws {
        try await withUpstream { upstream, _ in
            try await withRecordingServer(upstream: upstream) { server, base in
                let response = try await rawExchange(base, "GET /cookies HTTP/1.1\r\nHost: localhost")
                #expect(
                    response.headers.values(for: "Set-Cookie") == [
                        "session=s3cr3t-session; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; HttpOnly",
                        "theme=dark; Path=/",
                    ])
                let recorded = try #require(server.recordedCassette?.interactions.first?.response)
                #expect(
                    recorded.headers.values(for: "Set-Cookie") == [
                        "session=<redacted>; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; HttpOnly",
                        "theme=<redacted>; Path=/",
                    ])
            }
        }
    }

    @Test func forwardedRequest_carriesTheLiveCredentials_toTheUpstreamHost_withoutHopByHopHeaders_whileTheRecordIsRedacted() async throws {
        try await withUpstream { upstream, log in
            try await withRecordingServer(upstream: upstream) { server, base in
                let body = Data(#"{"password":"hunter2","user":"ann"}"#.utf8)
                _ = try await rawExchange(
                    base,
                    """
                    POST /echo?access_token=live-token&page=2 HTTP/1.1\r
                    Host: 127.0.0.1:1\r
                    Authorization: Bearer live-bearer\r
                    Cookie: session=live-cookie\r
                    Proxy-Authorization: Basic cHJveHk6cHJveHk=\r
                    Connection: keep-alive, X-Hop\r
                    X-Hop: 1\r
                    Content-Type: application/json
                    """, body: body)
                let received = try #require(log.all.first)
                #expect(received.target == "/echo?access_token=live-token&page=2")
                #expect(received.headers["Host"] == "127.0.0.1:\(upstream.port!)")
                #expect(received.headers["Authorization"] == "Bearer live-bearer")
                #expect(received.headers["Cookie"] == "session=live-cookie")
                #expect(received.headers["Proxy-Authorization"] == nil)
                #expect(received.headers["X-Hop"] == nil)
                #expect(received.body == body)

                let recorded = try #require(server.recordedCassette?.interactions.first?.request)
                #expect(recorded.target == "/echo?access_token=%3Credacted%3E&page=2")
                #expect(recorded.headers["Host"] == "127.0.0.1:\(upstream.port!)")
                #expect(recorded.headers["Authorization"] == "<redacted>")
                #expect(recorded.headers["Cookie"] == "session=<redacted>")
                #expect(recorded.headers["Proxy-Authorization"] == nil)
                #expect(recorded.headers["Connection"] == nil)
                #expect(recorded.body == .json(["password": "<redacted>", "user": "ann"]))
            }
        }
    }

    @Test func eachExchange_isOnDiskBeforeTheClientHasItsAnswer_withTimeAndDuration() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("new/folder/api.json")
        try await withUpstream { upstream, _ in
            try await withRecordingServer(upstream: upstream, file: file) { _, base in
                for count in 1...3 {
                    _ = try await rawExchange(base, "GET /text?n=\(count) HTTP/1.1\r\nHost: localhost")
                    let saved = try Cassette.load(from: file)
                    #expect(saved.interactions.map(\.request.target) == (1...count).map { "/text?n=\($0)" })
                }
            }
            let saved = try Cassette.load(from: file)
            #expect(saved.name == "api")
            #expect(saved.upstream == upstream.absoluteString)
            #expect(saved.origin == .recorded)
            #expect(saved.interactions.allSatisfy { $0.recordedAt != nil && ($0.durationMs ?? -1) >= 0 })
        }
    }

    @Test func concurrentExchanges_areAllRecorded_andSaved() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("api.json")
        let count = 24
        try await withUpstream { upstream, _ in
            try await withRecordingServer(upstream: upstream, file: file) { server, base in
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<count {
                        group.addTask { try await rawExchange(base, "GET /text?n=\(index) HTTP/1.1\r\nHost: localhost").status }
                    }
                    for try await status in group { #expect(status == 200) }
                }
                #expect(server.recordedCassette?.interactions.count == count)
            }
        }
        let targets = Set(try Cassette.load(from: file).interactions.map(\.request.target))
        #expect(targets == Set((0..<count).map { "/text?n=\($0)" }))
    }

    @Test func recordedExchanges_areJournaled_andReported() async throws {
        let reports = ExchangeReports()
        try await withUpstream { upstream, _ in
            try await withRecordingServer(upstream: upstream, onExchange: reports.append) { server, base in
                _ = try await rawExchange(base, "GET /text HTTP/1.1\r\nHost: localhost")
                _ = try await rawExchange(base, "HEAD /json HTTP/1.1\r\nHost: localhost")
                let outcomes = server.journal.entries.map(\.outcome)
                #expect(outcomes.map(\.kind) == [.recorded, .recorded])
                #expect(outcomes.map(\.status) == [200, 200])
                #expect(outcomes.map { $0.interaction?.index } == [0, 1])
            }
        }
        #expect(reports.all.map(\.index) == [0, 1])
        #expect(reports.all.map(\.bodyBytes) == [FakeUpstream.text.count, 0])
        #expect(reports.all.allSatisfy { $0.saveError == nil && $0.status == 200 })
    }
}
