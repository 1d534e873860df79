import Foundation
@testable import MockServer
import ServiceReplayShared
import Testing

/// What a recording server writes and reports, and what it refuses to forward.
@Suite struct RecordModeSavingTests {
    @Test func folderThatCannotBeCreated_failsTheStart_withASentence() async throws {
        // Given a cassette path whose folder cannot be created (a file is in the way)
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let blocker = folder.appendingPathComponent("blocked")
        try Data("a file, not a folder".utf8).write(to: blocker)
        let file = blocker.appendingPathComponent("api.json")
        // When a recording server starts, then it fails saying why
        try await withUpstream { upstream, _ in
            let error = await #expect(throws: MockServerError.self) {
                try await withRecordingServer(upstream: upstream, file: file) { _, _ in }
            }
            #expect(error?.code == .cannotSave)
            #expect(error?.description.hasPrefix("cannot create the folder for \(file.relativePath) (") == true)
        }
    }

    @Test func eachExchange_isInTheCaptureLog_beforeItsAnswer_andStopWritesTheCassetteAndRemovesTheLog() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("api.json")
        let log = CaptureLog.url(for: file)
        try await withUpstream { upstream, _ in
            try await withRecordingServer(upstream: upstream, file: file) { _, base in
                // When two exchanges are answered
                _ = try await rawExchange(base, "GET /json HTTP/1.1\r\nHost: localhost")
                _ = try await rawExchange(base, "GET /text HTTP/1.1\r\nHost: localhost")
                // Then a reader already sees both, from the log
                #expect(FileManager.default.fileExists(atPath: log.path))
                #expect(try Cassette.load(from: file).interactions.map(\.request.target) == ["/json", "/text"])
                #expect(try Cassette.files(in: folder) == [file])
            }
        }
        // And after stop the cassette holds them and the log is gone
        #expect(try Cassette(jsonData: Data(contentsOf: file), source: "api.json").interactions.count == 2)
        #expect(!FileManager.default.fileExists(atPath: log.path))
    }

    @Test func staleLog_isNeverApplied_toAnEditedCassette_norTwice() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("api.json")
        let log = CaptureLog.url(for: file)
        // Given a log extending a cassette of one interaction, and that cassette
        let base = Cassette(name: "api", upstream: "http://127.0.0.1:1", interactions: [.stub("GET", "/a", json: 1)])
        try base.save(to: file)
        let logged = Interaction.stub("GET", "/b", json: 2)
        var lines = CaptureLog.headerLine(base: CaptureLog.digest(base.encoded()), cassette: base) + CaptureLog.interactionLine(logged)
        try Data(lines).write(to: log)
        // Then a reader applies it once
        #expect(try Cassette.load(from: file).interactions.count == 2)
        // When the merged cassette is checkpointed (announced in the log, then written)
        var merged = base
        merged.interactions.append(logged)
        lines += CaptureLog.checkpointLine(count: 1, digest: CaptureLog.digest(merged.encoded()))
        try Data(lines).write(to: log)
        try merged.save(to: file, overwrite: true)
        // Then the logged interaction is not applied again
        #expect(try Cassette.load(from: file).interactions.count == 2)
        // When the cassette is edited by hand meanwhile, the log belongs to no version of it and applies nothing
        var edited = merged
        edited.note = "edited"
        try edited.save(to: file, overwrite: true)
        #expect(try Cassette.load(from: file).interactions.count == 2)
        // And a torn last line is ignored
        try Data(lines + Array(#"{"interaction":{"req"#.utf8)).write(to: log)
        try base.save(to: file, overwrite: true)
        #expect(try Cassette.load(from: file).interactions.count == 2)
    }

    @Test func inMemoryRecording_isNamedAfterTheUpstreamHost_andSavesNothing() async throws {
        try await withUpstream { upstream, _ in
            try await withRecordingServer(upstream: upstream) { server, base in
                _ = try await rawExchange(base, "GET /json HTTP/1.1\r\nHost: localhost")
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
                let response = try await rawExchange(base, "GET \(target) HTTP/1.1\r\nHost: localhost")
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
            let configuration = CassetteServer.Configuration(
                faults: .none, onRequest: { entry in seen.withLock { $0.append("\(entry)") } },
                mode: .record, recording: RecordingOptions(upstream: try Upstream(upstream)))
            try await withMockServer(cassettes: [], configuration: configuration) { server in
                _ = try await rawExchange(server.baseURL!, "GET /text HTTP/1.1\r\nHost: localhost")
            }
        }
        #expect(seen.withLock { $0 } == ["#0 GET /text → recorded (200)"])
    }
}
