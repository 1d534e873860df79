import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared
@testable import MockServer
import Testing

/// `withMockServer(replaying:)` recording from tests, through the closure users call, in an environment each
/// test sets, against a real upstream on loopback.
@Suite struct RecordFromClosuresTests {
    /// How many tests share one cassette, as in the report: nine tests of one cassette, run in parallel.
    static let sharers = 9

    /// An upstream on loopback answering `/item/N` for every N the tests ask for.
    static let upstreamCassette = Cassette(
        name: "upstream",
        interactions: (0..<sharers).map { index in
            .stub("GET", "/item/\(index)", json: ["item": .number(JSONNumber(index))])
        })

    /// GETs `target` from `server`, failing on anything but a 200.
    static func get(_ target: String, from server: CassetteServer) async throws -> String {
        let (data, response) = try await withURLSession(timeout: 30) { session in
            try await session.httpData(for: URLRequest(url: URL(string: target, relativeTo: server.baseURL!)!))
        }
        try #require(response.statusCode == 200, "GET \(target) answered \(response.statusCode): \(String(decoding: data, as: UTF8.self))")
        return String(decoding: data, as: UTF8.self)
    }

    @Test func allMode_neverReplacesTheCassette_sinceTheClosureCannotSeeAFailedExpect() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("things.json")
        try Cassette(name: "things", interactions: [.stub("GET", "/item/0", text: "old")]).save(to: file)
        let old = try Data(contentsOf: file)
        let messages = Lock<[String]>([])
        try await withMockServer(cassettes: [Self.upstreamCassette], configuration: .init(faults: .none)) { upstream in
            try await TestEnvironment.$override.withValue(["MOCKSERVER_RECORD": "all"]) {
                // A test whose #expect fails without throwing: the old cassette must survive it.
                try await withKnownIssue {
                    try await withMockServer(
                        replaying: "things", in: folder, upstream: upstream.baseURL!.absoluteString,
                        configuration: .init(faults: .none)
                    ) { server in
                        _ = try await Self.get("/item/1", from: server)
                        Issue.record("the test fails without throwing")
                    }
                } matching: { issue in
                    if let error = issue.error as? MockServerError { messages.withLock { $0.append(error.description) } }
                    return true
                }
            }
        }
        #expect(try Data(contentsOf: file) == old)
        let kept = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0 != "things.json" })
        let pending = folder.appendingPathComponent(kept).path
        #expect(
            messages.withLock { $0 } == [
                "MOCKSERVER_RECORD=all cannot tell here whether the test recorded a failure without throwing (such as a failed XCTAssert), so it left \(file.path) as it was; the new recording is in \(pending): if the test passed, accept it with `mv '\(pending)' '\(file.path)'`"
            ])
    }

    /// A closure that sends nothing to its server under `once` would record no cassette and pass, then fail
    /// offline for want of it: it fails now, saying why, and writes no file.
    @Test func onceMode_withNoRequest_failsSayingNothingWasRecorded() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("untouched.json")
        let thrown = await TestEnvironment.$override.withValue(["MOCKSERVER_RECORD": "once"]) { () async -> MockServerError? in
            do {
                try await withMockServer(
                    replaying: "untouched", in: folder, upstream: "http://127.0.0.1:1",
                    configuration: .init(faults: .none)
                ) { _ in }
                return nil
            } catch {
                return error as? MockServerError
            }
        }
        #expect(
            thrown?.description
                == "no request reached the server while MOCKSERVER_RECORD=once recorded \(file.path), so there is nothing to replay offline; a test whose requests go elsewhere (the fault matrix starts servers of its own) does not belong under .mockServer or withMockServer"
        )
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    /// Runs ``sharers`` tests in parallel, each through `withMockServer(replaying: "shared/book")` for an item of
    /// its own, in `environment`; returns their answers by item.
    static func runSharers(folder: URL, upstream: URL, environment: [String: String]) async throws -> [String] {
        try await TestEnvironment.$override.withValue(environment) {
            try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for index in 0..<sharers {
                    group.addTask {
                        let body = try await withMockServer(
                            replaying: "shared/book", in: folder, upstream: upstream.absoluteString,
                            configuration: .init(faults: .none, strict: true)
                        ) { server in
                            try await Self.get("/item/\(index)", from: server)
                        }
                        return (index, body)
                    }
                }
                var bodies = Array(repeating: "", count: sharers)
                for try await (index, body) in group { bodies[index] = body }
                return bodies
            }
        }
    }

    @Test func onceMode_parallelTestsSharingACassette_recordItTogether_thenReplayItOffline() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = (0..<Self.sharers).map { #"{"item":\#($0)}"# }
        // GIVEN an empty recordings folder, WHEN nine tests of one cassette run at once under `once`
        let recorded = try await withMockServer(cassettes: [Self.upstreamCassette], configuration: .init(faults: .none)) { upstream in
            let bodies = try await Self.runSharers(folder: folder, upstream: upstream.baseURL!, environment: ["MOCKSERVER_RECORD": "once"])
            // THEN each reached the upstream once, and got its own answer
            #expect(upstream.journal.entries.count == Self.sharers)
            return bodies
        }
        #expect(recorded == expected)
        let cassette = try Cassette.load(from: folder.appendingPathComponent("shared/book.json"))
        #expect(Set(cassette.interactions.map(\.request.target)) == Set((0..<Self.sharers).map { "/item/\($0)" }))
        #expect(cassette.interactions.count == Self.sharers)
        // AND in the default mode, with the upstream gone, every test replays its answer
        let offline = URL(string: "http://127.0.0.1:\(try await closedPort())")!
        #expect(try await Self.runSharers(folder: folder, upstream: offline, environment: [:]) == expected)
    }

    @Test func faultTest_inAModeThatRecords_failsSayingWhy_insteadOfRunningWithoutItsFaults() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = try FaultPlan.parse(specs: "status=503")
        let error = await #expect(throws: MockServerError.self) {
            try await TestEnvironment.$override.withValue(["MOCKSERVER_RECORD": "once"]) {
                try await withMockServer(
                    replaying: "things", in: folder, upstream: "http://127.0.0.1:1",
                    configuration: .init(faults: .plan(plan))
                ) { _ in }
            }
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(
            error?.description
                == "faults do not apply while MOCKSERVER_RECORD=once records things, and this helper cannot run the test once to record and again with the faults; record the cassette with the tests that need its answers, or use the .mockServer trait or withReplay in Swift Testing"
        )
    }

    @Test func nestedRecording_ofTheSameCassette_failsAtOnce_insteadOfWaitingForever() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("things.json")
        let error = await #expect(throws: MockServerError.self) {
            try await TestEnvironment.$override.withValue(["MOCKSERVER_RECORD": "new-episodes"]) {
                try await withMockServer(replaying: "things", in: folder, upstream: "http://127.0.0.1:1", configuration: .init(faults: .none)) { _ in
                    try await withMockServer(replaying: "things", in: folder, upstream: "http://127.0.0.1:1", configuration: .init(faults: .none)) { _ in }
                }
            }
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(
            error?.description
                == "this test is recording \(file.standardizedFileURL.path) already, so a helper inside it cannot record the same cassette; give the inner one a cassette of its own"
        )
    }
}
