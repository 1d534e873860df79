import Foundation
@testable import MockServer
import Locking
import Testing

/// What a recording server writes and reports, and what it refuses to forward.
@Suite struct RecordModeSavingTests {
    @Test func failedSave_isReported_keptInMemory_andWrittenBySaveRecordingOnceItCanBe() async throws {
        // Given a cassette path whose folder cannot be created (a file is in the way)
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let blocker = folder.appendingPathComponent("blocked")
        try Data("a file, not a folder".utf8).write(to: blocker)
        let file = blocker.appendingPathComponent("api.json")
        let reports = ExchangeReports()
        try await withUpstream { upstream, _ in
            try await withRecordingServer(upstream: upstream, file: file, onExchange: reports.append) { server, base in
                // When an exchange is recorded
                let response = try await rawExchange(base, "GET /text HTTP/1.1\r\nHost: proxy")
                // Then the client still gets its answer, and the report says the save failed
                #expect(response.status == 200)
                #expect(reports.all.first?.saveError?.code == .cannotSave)
                #expect(server.recordedCassette?.interactions.count == 1)
                let error = #expect(throws: MockServerError.self) { try server.saveRecording() }
                #expect(error?.description.hasPrefix("cannot create the folder for \(file.relativePath) (") == true)
                // And once the way is clear, saveRecording writes what was kept
                try FileManager.default.removeItem(at: blocker)
                try server.saveRecording()
                #expect(try Cassette.load(from: file).interactions.count == 1)
            }
        }
    }

    @Test func inMemoryRecording_isNamedAfterTheUpstreamHost_andSavesNothing() async throws {
        try await withUpstream { upstream, _ in
            try await withRecordingServer(upstream: upstream) { server, base in
                _ = try await rawExchange(base, "GET /json HTTP/1.1\r\nHost: proxy")
                #expect(server.recordedCassette?.name == "127.0.0.1")
                #expect(server.recordedCassette?.upstream == upstream.absoluteString)
                try server.saveRecording()
            }
        }
    }

    @Test(arguments: ["http://example.com/users", "*"])
    func targetThatIsNotAPath_isAnswered400_withoutForwardingOrRecording(target: String) async throws {
        try await withUpstream { upstream, log in
            try await withRecordingServer(upstream: upstream) { server, base in
                let response = try await rawExchange(base, "GET \(target) HTTP/1.1\r\nHost: proxy")
                #expect(response.status == 400)
                #expect(response.bodyText.contains("reverse proxy"))
                #expect(log.all.isEmpty)
                #expect(server.recordedCassette?.interactions.isEmpty == true)
            }
        }
    }

    @Test func onRequest_givenToTheConfiguration_seesEachRecordedExchange() async throws {
        let seen = Lock<[String]>([])
        try await withUpstream { upstream, _ in
            let configuration = ReplayServer.Configuration(faults: .none, onRequest: { entry in seen.withLock { $0.append("\(entry)") } },
                                                           mode: .record, recording: RecordingOptions(upstream: try Upstream(upstream)))
            try await withMockServer(cassettes: [], configuration: configuration) { server in
                _ = try await rawExchange(server.baseURL!, "GET /text HTTP/1.1\r\nHost: proxy")
            }
        }
        #expect(seen.withLock { $0 } == ["#0 GET /text → recorded (200)"])
    }
}
