import Foundation
@testable import MockServer
import Testing

/// Each fault kind, observed at the wire with a raw socket: exactly what bytes arrive and how the
/// connection ends.
@Suite struct FaultWireTests {
    // Keys sorted, as replay serialises JSON bodies.
    static let body = #"{"bio":"Writes Swift for a living, mostly servers.","email":"ann@example.com","id":7,"name":"Ann Lee"}"#
    static let request = "GET /thing HTTP/1.1\r\nHost: localhost\r\n\r\n"

    /// A cassette with one JSON interaction and one error template, served under `specs` (seed 42).
    static func withFaultServer<T>(_ specs: String, _ body: (CassetteServer, URL) async throws -> T) async throws -> T {
        var cassette = Cassette(
            name: "things",
            interactions: [
                .stub("GET", "/thing", json: try CassetteJSON(parsing: Data(Self.body.utf8)), headers: ["Content-Type": "application/json"])
            ])
        cassette.errorTemplates["quota"] = RecordedResponse(
            status: 429, headers: ["Content-Type": "application/json", "Retry-After": "30"],
            body: .json(.object(["error": .string("quota")])))
        let plan = try FaultPlan.parse(specs: specs, seed: 42)
        return try await withMockServer(cassettes: [cassette], configuration: .init(faults: .plan(plan))) { server in
            try await body(server, server.baseURL!)
        }
    }

    /// Sends the request on a fresh connection and reads until the server ends it (bounded).
    static func rawExchange(_ url: URL, timeout: Duration = .seconds(10)) async throws -> (bytes: Data, ending: RawHTTPClient.Ending) {
        let client = try RawHTTPClient(url)
        try client.send(request)
        return await client.readToEnd(timeout: timeout)
    }

    @Test func refuse_closesOnAccept_beforeReadingAnything() async throws {
        try await Self.withFaultServer("refuse") { server, url in
            let client = try RawHTTPClient(url)
            let (bytes, ending) = await client.readToEnd()
            #expect(bytes.isEmpty)
            #expect(ending == .closed)
            #expect(server.refusedConnections.count == 1)
            #expect(server.journal.entries.isEmpty)
        }
    }

    @Test func reset_readsTheRequest_thenSendsRST() async throws {
        try await Self.withFaultServer("reset") { server, url in
            let (bytes, ending) = try await Self.rawExchange(url)
            #expect(bytes.isEmpty)
            #expect(ending == .reset)
            #expect(server.journal.entries.map(\.outcome.kind) == [.faultInjected])
        }
    }

    @Test func empty_closesCleanly_withoutAByte() async throws {
        try await Self.withFaultServer("empty") { _, url in
            let (bytes, ending) = try await Self.rawExchange(url)
            #expect(bytes.isEmpty)
            #expect(ending == .closed)
        }
    }

    @Test func truncateStatusLine_sendsPartOfTheStatusLine() async throws {
        try await Self.withFaultServer("truncate=status-line") { _, url in
            let (bytes, ending) = try await Self.rawExchange(url)
            #expect(String(decoding: bytes, as: UTF8.self) == "HTTP/1.1 2")
            #expect(ending == .closed)
        }
    }

    @Test func truncateHeaders_sendsTheStatusLineAndPartOfTheHeaders_neverTheBlankLine() async throws {
        try await Self.withFaultServer("truncate=headers") { _, url in
            let (bytes, ending) = try await Self.rawExchange(url)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(text.count > "HTTP/1.1 200 OK\r\n".count)
            #expect(!text.contains("\r\n\r\n"))
            #expect(ending == .closed)
        }
    }

    @Test func truncateBody_sendsExactlyNBodyBytes_underALargerContentLength() async throws {
        try await Self.withFaultServer("truncate=body:10") { _, url in
            let (bytes, ending) = try await Self.rawExchange(url)
            let split = try #require(bytes.firstRange(of: Data("\r\n\r\n".utf8)))
            let head = String(decoding: bytes[..<split.lowerBound], as: UTF8.self)
            let received = bytes[split.upperBound...]
            #expect(head.contains("Content-Length: \(Self.body.utf8.count)"))
            #expect(received == Data(Self.body.utf8.prefix(10)))
            #expect(ending == .closed)
        }
    }

    @Test func malformedChunk_sendsAValidChunkThenANonHexSize() async throws {
        try await Self.withFaultServer("malformed-chunk") { _, url in
            let (bytes, ending) = try await Self.rawExchange(url)
            let text = String(decoding: bytes, as: UTF8.self)
            let half = Self.body.utf8.count / 2
            #expect(text.contains("Transfer-Encoding: chunked\r\n"))
            #expect(!text.contains("Content-Length"))
            #expect(text.hasSuffix("\r\n\r\n\(String(half, radix: 16))\r\n\(Self.body.prefix(half))\r\nzz-not-a-chunk-size\r\n"))
            #expect(ending == .closed)
        }
    }

    @Test func garbage_sendsExactlyNSeededBytes_thatAreNotHTTP_sameSeedSameBytes() async throws {
        let first = try await Self.withFaultServer("garbage=64") { _, url in try await Self.rawExchange(url) }
        let again = try await Self.withFaultServer("garbage=64") { _, url in try await Self.rawExchange(url) }
        #expect(first.bytes.count == 64)
        #expect(first.bytes.first.map { $0 >= 0x80 } == true)
        #expect(first.ending == .closed)
        #expect(again.bytes == first.bytes)
    }

    @Test func stall_neverAnswers_andStopStillClosesPromptly() async throws {
        let client = try await Self.withFaultServer("stall") { server, url in
            try await Self.heldOpen(Self.request, on: server, journaled: 1)
        }
        // withMockServer has stopped the server: the stalled connection is now closed.
        await Self.expectNothingBeforeTheEnd(client)
    }

    /// Sends `request` to `server` on a new connection and returns the client, once `entries` requests are
    /// journaled and the reply carried out on its loop, having checked that the connection stays open.
    static func heldOpen(_ request: String, on server: CassetteServer, journaled entries: Int) async throws -> RawHTTPClient {
        let client = try RawHTTPClient(server.baseURL!)
        try client.send(request)
        #expect(await server.journal.waitForEntries(entries))
        await Settled.loops()
        #expect(server.openConnectionCount == 1)
        return client
    }

    /// Reads until the (stopped) server ends the connection: not a byte comes before the end.
    static func expectNothingBeforeTheEnd(_ client: RawHTTPClient) async {
        let (bytes, ending) = await client.readToEnd(timeout: .seconds(10))
        #expect(bytes.isEmpty)
        #expect(ending != .timedOut)
    }

    @Test func latency_delaysTheRecordedResponse_byAtLeastTheDelay() async throws {
        try await Self.withFaultServer("latency=250ms") { server, url in
            let client = try RawHTTPClient(url)
            let start = ContinuousClock.now
            try client.send(Self.request)
            let response = try await client.readResponse()
            #expect(ContinuousClock.now - start >= .milliseconds(250))
            #expect(response.bodyText == Self.body)
            #expect(server.journal.entries.first?.outcome.faultRule == "rule 1 'latency=250ms' on match 1")
        }
    }

    @Test func throttle_dripsTheResponse_noFasterThanTheRate() async throws {
        // About 250 bytes at 500 B/s cannot arrive in under 0.4 s.
        try await Self.withFaultServer("throttle=500B/s") { _, url in
            let client = try RawHTTPClient(url)
            let start = ContinuousClock.now
            try client.send(Self.request)
            let response = try await client.readResponse()
            #expect(ContinuousClock.now - start >= .milliseconds(400))
            #expect(response.bodyText == Self.body)
        }
    }

    @Test(arguments: [(503, "1"), (429, "1"), (500, nil), (502, nil), (504, nil)] as [(Int, String?)])
    func status_replacesTheResponse_503And429CarryRetryAfter(code: Int, retryAfter: String?) async throws {
        try await Self.withFaultServer("status=\(code)") { _, url in
            let client = try RawHTTPClient(url)
            try client.send(Self.request)
            let response = try await client.readResponse()
            #expect(response.status == code)
            #expect(response.headers["Retry-After"] == retryAfter)
            #expect(response.bodyText == #"{"error":"\#(HTTPResponse.reasonPhrase(for: code))","status":\#(code)}"#)
        }
    }

    @Test func statusWithRetryAfter_usesTheGivenValue() async throws {
        try await Self.withFaultServer("status=503,retry-after=2") { _, url in
            let client = try RawHTTPClient(url)
            try client.send(Self.request)
            #expect(try await client.readResponse().headers["Retry-After"] == "2")
        }
    }

    @Test func httpLevelFaults_damageTheRecordedResponse() async throws {
        try await Self.withFaultServer("corrupt-body,when=nth:1; empty-body,when=nth:1; content-type=text/html,when=nth:1") { _, url in
            let client = try RawHTTPClient(url)
            for _ in 0..<3 { try client.send(Self.request) }
            let corrupt = try await client.readResponse()
            #expect(corrupt.status == 200)
            #expect((try? JSONSerialization.jsonObject(with: corrupt.body)) == nil)
            #expect(corrupt.body.count == Int(corrupt.headers["Content-Length"] ?? ""))
            let empty = try await client.readResponse()
            #expect(empty.body.isEmpty && empty.headers["Content-Length"] == "0")
            let html = try await client.readResponse()
            #expect(html.headers["Content-Type"] == "text/html")
            #expect(html.bodyText == Self.body)
        }
    }

    @Test func serviceError_answersWithTheCassettesTemplate() async throws {
        try await Self.withFaultServer("service-error=quota") { _, url in
            let client = try RawHTTPClient(url)
            try client.send(Self.request)
            let response = try await client.readResponse()
            #expect(response.status == 429)
            #expect(response.headers["Retry-After"] == "30")
            #expect(response.bodyText == #"{"error":"quota"}"#)
        }
    }

    @Test func replacingFaults_leaveTheSequenceUntouched_soARetryGetsTheFirstRecordedResponse() async throws {
        let cassette = Cassette(
            name: "poll", matching: MatchRules(afterLast: .fail),
            interactions: [
                .stub("GET", "/job", json: .object(["state": .string("pending")])),
                .stub("GET", "/job", json: .object(["state": .string("done")])),
            ])
        let plan = try FaultPlan.parse(specs: "status=503,when=first:1")
        try await withMockServer(cassettes: [cassette], configuration: .init(faults: .plan(plan))) { server in
            let client = try RawHTTPClient(server.baseURL!)
            for _ in 0..<3 { try client.send("GET /job HTTP/1.1\r\nHost: localhost\r\n\r\n") }
            #expect(try await client.readResponse().status == 503)
            #expect(try await client.readResponse().bodyText == #"{"state":"pending"}"#)
            #expect(try await client.readResponse().bodyText == #"{"state":"done"}"#)
        }
    }

    @Test func probabilityTrigger_sameSeed_sameRequestsFaulted_recordedInTheJournal() async throws {
        func faulted(seed: UInt64) async throws -> [Int] {
            let plan = try FaultPlan.parse(specs: "status=500,when=p:0.5", seed: seed)
            var cassette = Cassette(name: "things", interactions: [.stub("GET", "/thing", json: .object([:]))])
            cassette.matching = MatchRules(afterLast: .repeat)
            return try await withMockServer(cassettes: [cassette], configuration: .init(faults: .plan(plan))) { server in
                let client = try RawHTTPClient(server.baseURL!)
                var statuses: [Int] = []
                for _ in 0..<40 {
                    try client.send(Self.request)
                    statuses.append(try await client.readResponse().status)
                }
                let journalled = server.journal.entries.filter { $0.outcome.kind == .faultInjected }
                #expect(journalled.allSatisfy { $0.outcome.faultSeed == seed })
                #expect(journalled.count == statuses.filter { $0 == 500 }.count)
                return statuses.indices.filter { statuses[$0] == 500 }
            }
        }
        let first = try await faulted(seed: 7)
        #expect(try await faulted(seed: 7) == first)
        #expect(try await faulted(seed: 8) != first)
        #expect((5...35).contains(first.count))
    }

    @Test func recordedTransportFailures_replayAsTheSameFailure() async throws {
        let cassette = Cassette(
            name: "failures",
            interactions: [
                .failure("GET", "/refused", kind: .refused), .failure("GET", "/reset", kind: .reset), .failure("GET", "/timeout", kind: .timeout),
            ])
        let client = try await withMockServer(cassettes: [cassette], configuration: .init(faults: .none)) { server in
            for target in ["/refused", "/reset"] {
                let client = try RawHTTPClient(server.baseURL!)
                try client.send("GET \(target) HTTP/1.1\r\nHost: localhost\r\n\r\n")
                #expect(await client.readToEnd().ending == .reset)
            }
            // A recorded timeout holds the connection open once its reply is carried out on the loop
            return try await Self.heldOpen("GET /timeout HTTP/1.1\r\nHost: localhost\r\n\r\n", on: server, journaled: 3)
        }
        // Until the server stops
        await Self.expectNothingBeforeTheEnd(client)
    }
}

@Suite struct FaultStrictModeTests {
    @Test func unmatchedRequestUnderALatencyFault_stillFailsStrictMode() async throws {
        let plan = try FaultPlan.parse(specs: "latency=1ms")
        let error = await #expect(throws: MockServerError.self) {
            try await withMockServer(cassettes: [], configuration: .init(faults: .plan(plan), strict: true)) { server in
                let client = try RawHTTPClient(server.baseURL!)
                try client.send("GET /nothing HTTP/1.1\r\nHost: localhost\r\n\r\n")
                #expect(try await client.readResponse().status == 404)
            }
        }
        #expect(error?.description.hasPrefix("1 request was not matched by any recorded interaction:") == true)
    }
}
