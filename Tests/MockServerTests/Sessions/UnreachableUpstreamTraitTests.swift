import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared
@testable import MockServer
@testable import MockServerTesting
import Testing

/// Recording from a test while the upstream is down, through the `.mockServer` trait as a user's test runs it:
/// nothing is recorded, the test fails saying so, and once the upstream is up the same mode records the
/// cassette. And a replayed transport failure that fails a test names its cassette and interaction.
@Suite struct UnreachableUpstreamTraitTests {
    /// GETs `path` from the running test's server; the status and body.
    static func get(_ path: String) async throws -> (status: Int, body: String) {
        let server = try #require(CassetteServer.current)
        let (data, response) = try await withURLSession(timeout: 30) { session in
            try await session.httpData(for: URLRequest(url: server.baseURL!.appendingPathComponent(path)))
        }
        return (response.statusCode, String(decoding: data, as: UTF8.self))
    }

    @Test func onceMode_upstreamDown_recordsNothing_andFailsSayingSo_thenRecordsWhenItIsUp() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("things.json")
        // Given a test recording under `once` from an upstream nothing listens on
        let down = URL(string: "http://127.0.0.1:\(try await closedPort())")!
        let trait = MockServerTraitTests.trait("things", in: folder, upstream: down, environment: ["MOCKSERVER_RECORD": "once"])
        // When it runs (its request gets the proxy's 502, which it does not treat as a failure)
        let answers = Lock<[(status: Int, body: String)]>([])
        let error = await #expect(throws: MockServerError.self) {
            try await MockServerTraitTests.scope(trait) {
                let answer = try await Self.get("json")
                answers.withLock { $0.append(answer) }
            }
        }
        // Then the request's 502 says that nothing was recorded, and the test fails saying the same
        #expect(answers.withLock { $0.map(\.status) } == [502])
        #expect(answers.withLock { $0.first?.body.contains("could not be reached; nothing was recorded for this request.") } == true)
        #expect(error?.code == .upstreamUnreachable)
        #expect(error?.description.hasPrefix("the upstream \(down.absoluteString) could not be reached (") == true)
        #expect(error?.description.contains("), so nothing was recorded for 1 request (the first: GET /json) in \(file.path); start the upstream") == true)
        // And no cassette was written, so `once` records it when the upstream is up
        #expect(!FileManager.default.fileExists(atPath: file.path))
        try await withUpstream { upstream, _ in
            let trait = MockServerTraitTests.trait("things", in: folder, upstream: upstream, environment: ["MOCKSERVER_RECORD": "once"])
            try await MockServerTraitTests.scope(trait) {
                let status = try await Self.get("json").status
                #expect(status == 200)
            }
        }
        let recorded = try Cassette.load(from: file)
        #expect(recorded.interactions.map(\.response?.status) == [200])
    }

    @Test func allMode_someRequestsNotReachingTheUpstream_leaveTheOldCassette_andFailSayingWhy() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("things.json")
        try Cassette(name: "things", interactions: [.stub("GET", "/json", text: "old")]).save(to: file)
        let old = try Data(contentsOf: file)
        let error = try await withUpstream { upstream, _ in
            // Given a test re-recording under `all`, one of whose requests the upstream resets before any byte,
            // and which passes anyway
            let trait = MockServerTraitTests.trait("things", in: folder, upstream: upstream, environment: ["MOCKSERVER_RECORD": "all"])
            return await #expect(throws: MockServerError.self) {
                try await MockServerTraitTests.scope(trait) {
                    let statuses = [try await Self.get("json").status, try await Self.get("reset").status]
                    #expect(statuses == [200, 502])
                }
            }
        }
        // Then the short recording does not replace the old cassette, and the failure says why and where it went
        #expect(try Data(contentsOf: file) == old)
        #expect(error?.code == .upstreamUnreachable)
        #expect(error?.description.contains("nothing was recorded for 1 request (the first: GET /reset)") == true)
        #expect(error?.description.contains("; and the test failed, so MOCKSERVER_RECORD=all left \(file.path) as it was; the new recording is in ") == true)
    }

    /// A cassette recorded while its upstream was down, as recording made them before: `GET /json` refused.
    static func refusedCassette() -> Cassette {
        let request = RecordedRequest(method: "GET", target: "/json")
        return Cassette(
            name: "things", upstream: "http://127.0.0.1:9", recordedAt: Date(timeIntervalSince1970: 1_700_000_000),
            interactions: [
                .stub("GET", "/ok", text: "ok"),
                Interaction(
                    request: request, failure: TransportFailure(kind: .refused, message: "Could not connect to http://127.0.0.1:9: Connection refused."),
                    recordedAt: Date(timeIntervalSince1970: 1_700_000_000), durationMs: 1),
            ])
    }

    @Test func replayedRecordedFailure_failingTest_namesTheCassetteAndInteraction() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.refusedCassette().save(to: folder.appendingPathComponent("things.json"))
        let trait = MockServerTraitTests.trait("things", in: folder)
        let journal = Lock<[String]>([])
        let comments = Lock<[String]>([])
        // When a test meets the replayed refusal (its client sees the connection lost) and fails
        try await withKnownIssue {
            try await MockServerTraitTests.scope(trait) {
                let server = try #require(CassetteServer.current)
                defer { journal.withLock { $0 = server.journal.entries.map(\.description) } }
                _ = try await Self.get("json")
            }
        } matching: { issue in
            comments.withLock { $0 += issue.comments.map(\.rawValue) }
            return true
        }
        // Then the journal entry and the test's failure name the cassette and the interaction
        #expect(journal.withLock { $0 } == ["#0 GET /json → things interaction 1, which replays a refused connection as a reset"])
        let test = CassetteSession.testName(try #require(Test.current).name)
        #expect(
            comments.withLock { $0 } == [
                "the cassettes replayed transport failures: things interaction 1 (GET /json), which replays a refused connection as a reset; "
                    + "if the upstream was down when they were recorded, re-record them with the upstream up: `MOCKSERVER_RECORD=all swift test --filter \(test)`"
            ])
    }

    @Test func replayedFailure_passingTest_addsNothing() async throws {
        // A test that expects the failure passes, and nothing is said
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.refusedCassette().save(to: folder.appendingPathComponent("things.json"))
        try await MockServerTraitTests.scope(MockServerTraitTests.trait("things", in: folder)) {
            await #expect(throws: (any Error).self) { _ = try await Self.get("json") }
        }
    }

    @Test func strictReport_namesTheReplayedFailures_too() async throws {
        let server = try CassetteServer(cassettes: [Self.refusedCassette()], configuration: .init(faults: .none, strict: true))
        let base = try await server.start()
        let client = try RawHTTPClient(base)
        try client.send("GET /json HTTP/1.1\r\nHost: localhost\r\n\r\n")
        _ = await client.readToEnd(timeout: .seconds(10))
        client.close()
        _ = try await rawExchange(base, "GET /nothing HTTP/1.1\r\nHost: localhost")
        await server.stop()
        let error = #expect(throws: MockServerError.self) { try server.verifyNoUnmatchedRequests() }
        #expect(error?.description.hasPrefix("1 request was not matched by any recorded interaction:") == true)
        #expect(
            error?.description.hasSuffix(
                "\n\nAlso, the cassettes replayed transport failures: things interaction 1 (GET /json), which replays a refused connection as a reset; "
                    + "if the upstream was down when they were recorded, re-record them with the upstream up: `MOCKSERVER_RECORD=all swift test`") == true)
    }
}
