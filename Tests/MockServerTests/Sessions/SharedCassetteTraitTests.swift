import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
@testable import MockServerTesting
import Testing

/// Parallel tests sharing one cassette through the `.mockServer` trait, fault tests among them, recorded under
/// `once` from an empty folder and then replayed offline: the report's nine tests of one cassette.
@Suite struct SharedCassetteTraitTests {
    /// The items whose tests inject a fault: a 503 on their own path.
    static let faulted: Set<Int> = [2, 7]

    /// Runs the nine tests of `shared/book` in parallel, each as the trait runs a test case, in `environment`.
    static func runSuite(folder: URL, upstream: URL, environment: [String: String]) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<RecordFromClosuresTests.sharers {
                group.addTask {
                    let faults: CassetteServer.FaultSource =
                        faulted.contains(index)
                        ? .plan(try FaultPlan.parse(specs: "status=503,path=/item/\(index)")) : .none
                    var trait = MockServerTrait.mockServer("shared/book", upstream: upstream.absoluteString, in: folder, faults: faults)
                    trait.environment = environment
                    try await MockServerTraitTests.scope(trait) {
                        let server = try #require(CassetteServer.current)
                        let (data, response) = try await withURLSession(timeout: 30) { session in
                            try await session.httpData(for: URLRequest(url: server.baseURL!.appendingPathComponent("item/\(index)")))
                        }
                        if faulted.contains(index) {
                            #expect(response.statusCode == 503)
                        } else {
                            #expect(response.statusCode == 200)
                            #expect(String(decoding: data, as: UTF8.self) == #"{"item":\#(index)}"#)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func onceMode_faultTestsAmongThem_recordTogether_thenReplayOffline() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // GIVEN an empty folder, WHEN the suite runs under `once` against the upstream
        try await withMockServer(cassettes: [RecordFromClosuresTests.upstreamCassette], configuration: .init(faults: .none)) { upstream in
            try await Self.runSuite(folder: folder, upstream: upstream.baseURL!, environment: ["MOCKSERVER_RECORD": "once"])
            // THEN every item reached the upstream exactly once, fault tests' items included
            #expect(upstream.journal.entries.map(\.request.path).sorted() == (0..<RecordFromClosuresTests.sharers).map { "/item/\($0)" }.sorted())
        }
        let cassette = try Cassette.load(from: folder.appendingPathComponent("shared/book.json"))
        #expect(cassette.interactions.count == RecordFromClosuresTests.sharers)
        // AND in the default mode, with the upstream gone, the whole suite passes again, faults included
        let offline = URL(string: "http://127.0.0.1:\(try await closedPort())")!
        try await Self.runSuite(folder: folder, upstream: offline, environment: [:])
    }
}
