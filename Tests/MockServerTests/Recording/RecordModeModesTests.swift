import Foundation
@testable import MockServer
import ServiceReplayShared
import Testing

/// The forwarding modes side by side: what each forwards, replays, records and refuses.
@Suite struct RecordModeModesTests {
    private func cassette(upstream: URL, targets: [String]) -> Cassette {
        Cassette(
            name: "api", upstream: upstream.absoluteString,
            interactions: targets.map { target in
                Interaction(
                    request: RecordedRequest(method: "GET", target: target),
                    response: RecordedResponse(status: 200, headers: ["Content-Type": "text/plain"], body: .text("recorded \(target)")))
            })
    }

    @Test func replayOrRecord_replaysWhatTheFileHolds_andAppendsOnlyWhatWasMissing() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("api.json")
        try await withUpstream { upstream, log in
            // Given a cassette file that already holds GET /text?n=1
            try cassette(upstream: upstream, targets: ["/text?n=1"]).save(to: file)
            try await withRecordingServer(upstream: upstream, mode: .replayOrRecord, file: file) { server, base in
                // When the recorded request and a new one are sent
                let old = try await rawExchange(base, "GET /text?n=1 HTTP/1.1\r\nHost: localhost")
                let new = try await rawExchange(base, "GET /text?n=2 HTTP/1.1\r\nHost: localhost")
                // Then the first is replayed without reaching the upstream, the second forwarded
                #expect(old.bodyText == "recorded /text?n=1")
                #expect(new.body == FakeUpstream.text)
                #expect(log.all.map(\.target) == ["/text?n=2"])
                #expect(server.journal.entries.map(\.outcome.kind) == [.matched, .recorded])
            }
            // And the file holds the old interaction followed by the new one only
            let saved = try Cassette.load(from: file)
            #expect(saved.interactions.map(\.request.target) == ["/text?n=1", "/text?n=2"])
            #expect(saved.interactions[0].response?.body == .text("recorded /text?n=1"))
        }
    }

    @Test func replayOrRecord_forwardsAHEADThatOnlyARecordedGETWouldAnswer() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("api.json")
        try await withUpstream { upstream, log in
            // Given a cassette file that holds GET /text?n=1 and no HEAD
            try cassette(upstream: upstream, targets: ["/text?n=1"]).save(to: file)
            try await withRecordingServer(upstream: upstream, mode: .replayOrRecord, file: file) { server, base in
                // When a HEAD of it is sent
                _ = try await rawExchange(base, "HEAD /text?n=1 HTTP/1.1\r\nHost: localhost")
                // Then the upstream is asked, and the HEAD is recorded as it answered
                #expect(log.all.map { "\($0.method) \($0.target)" } == ["HEAD /text?n=1"])
                #expect(server.journal.entries.map(\.outcome.kind) == [.recorded])
            }
            #expect(try Cassette.load(from: file).interactions.map(\.request.method) == ["GET", "HEAD"])
        }
    }

    @Test func replayOrRecord_withoutAFile_startsANewCassette() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("fresh.json")
        try await withUpstream { upstream, _ in
            try await withRecordingServer(upstream: upstream, mode: .replayOrRecord, file: file) { _, base in
                _ = try await rawExchange(base, "GET /json HTTP/1.1\r\nHost: localhost")
            }
        }
        #expect(try Cassette.load(from: file).interactions.count == 1)
    }

    @Test func record_refusesAnExistingCassette_andLeavesItUntouched() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("api.json")
        let upstream = URL(string: "http://127.0.0.1:9")!
        try cassette(upstream: upstream, targets: ["/a"]).save(to: file)
        let before = try Data(contentsOf: file)
        let error = await #expect(throws: MockServerError.self) {
            try await withRecordingServer(upstream: upstream, mode: .record, file: file) { _, _ in }
        }
        #expect(error?.code == .cassetteExists)
        #expect(
            error?.description
                == "\(file.relativePath) already exists; record mode never replaces a cassette (append to it in replay-or-record mode, or record into another file)"
        )
        #expect(try Data(contentsOf: file) == before)
    }

    @Test func replayOrRecord_refusesACassetteRecordedFromAnotherUpstream() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("api.json")
        try cassette(upstream: URL(string: "https://api.github.com")!, targets: ["/a"]).save(to: file)
        let error = await #expect(throws: MockServerError.self) {
            try await withRecordingServer(upstream: URL(string: "http://127.0.0.1:9")!, mode: .replayOrRecord, file: file) { _, _ in }
        }
        #expect(error?.code == .differentUpstream)
        #expect(
            error?.description
                == "\(file.relativePath) was recorded from https://api.github.com, not http://127.0.0.1:9; record new episodes from the same upstream, or into another file"
        )
    }

    @Test func addedInteraction_answersBeforeTheUpstream_inReplayOrRecordMode() async throws {
        try await withUpstream { upstream, log in
            try await withRecordingServer(upstream: upstream, mode: .replayOrRecord) { server, base in
                // Given an interaction added in code to a server that replays before it forwards
                server.add(.stub("GET", "/text", status: 299))

                // When its request is sent
                let response = try await rawExchange(base, "GET /text HTTP/1.1\r\nHost: localhost")

                // Then the added interaction answers, and nothing reaches the upstream
                #expect(response.status == 299)
                #expect(log.all.isEmpty)
            }
        }
    }

    @Test func forwardingMode_withoutRecordingOptions_throwsAtStart() async throws {
        let server = try CassetteServer(cassettes: [], configuration: .init(faults: .none, mode: .passThrough))
        let error = await #expect(throws: MockServerError.self) { try await server.start() }
        #expect(error?.code == .missingOptions)
        await server.stop()
    }

    @Test func passThrough_forwardsEverything_recordsNothing_andJournalsIt() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("never.json")
        let reports = ExchangeReports()
        try await withUpstream { upstream, log in
            try await withRecordingServer(upstream: upstream, mode: .passThrough, file: file, onExchange: reports.append) { server, base in
                let response = try await rawExchange(base, "GET /text HTTP/1.1\r\nHost: localhost")
                #expect(response.body == FakeUpstream.text)
                #expect(log.all.count == 1)
                #expect(server.recordedCassette == nil)
                #expect(server.journal.entries.map(\.outcome.kind) == [.passedThrough])
                #expect(server.journal.entries.map(\.outcome.description) == ["passed through (200)"])
            }
        }
        #expect(reports.all.map(\.index) == [nil])
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func faultPlans_doNotTouchForwardedExchanges() async throws {
        try await withUpstream { upstream, _ in
            let options = RecordingOptions(upstream: try Upstream(upstream))
            let plan = try FaultPlan.parse(specs: "status=503")
            let server = try CassetteServer(cassettes: [], configuration: .init(faults: .plan(plan), mode: .record, recording: options))
            let base = try await server.start()
            let response = try await rawExchange(base, "GET /text HTTP/1.1\r\nHost: localhost")
            await server.stop()
            #expect(response.status == 200)
            #expect(server.faultPlan == nil)
        }
    }

    @Test func redactedSecrets_stillMatchOnReplay_withOtherLiveValues() async throws {
        try await withUpstream { upstream, _ in
            let cassette = try await withRecordingServer(upstream: upstream) { server, base in
                _ = try await rawExchange(
                    base, "GET /text?access_token=first-token&page=1 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer first\r\nCookie: session=first")
                return try #require(server.recordedCassette)
            }
            #expect(!String(decoding: cassette.encoded(), as: UTF8.self).contains("first"))
            let replay = CassetteServer.Configuration(matching: MatchRules(headers: ["Authorization", "Cookie"]), faults: .none, strict: true)
            try await withMockServer(cassettes: [cassette], configuration: replay) { server in
                let response = try await rawExchange(
                    server.baseURL!,
                    "GET /text?access_token=second-token&page=1 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer second\r\nCookie: session=second")
                #expect(response.status == 200)
                #expect(response.body == FakeUpstream.text)
            }
        }
    }

    @Test func stop_letsTheExchangeInFlightFinish_andSaveIt_whileRefusingNewRequests() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("api.json")
        let gate = UpstreamGate()
        try await withUpstream(respond: { request in
            request.path == "/slow" ? .deferred { responder in gate.hold(responder) } : FakeUpstream.respond(request)
        }) { upstream, _ in
            let options = RecordingOptions(upstream: try Upstream(upstream), file: file)
            let server = try CassetteServer(cassettes: [], configuration: .init(faults: .none, mode: .record, recording: options))
            let base = try await server.start()
            // Given an exchange waiting on the upstream
            async let slow = rawExchange(base, "GET /slow HTTP/1.1\r\nHost: localhost")
            await gate.waitForRequest()
            // When the server is told to stop
            async let stopped: Void = server.stop()
            // Then new requests are refused while the exchange is in flight
            var refused = false
            for _ in 0..<500 where !refused {
                refused = try await rawExchange(base, "GET /text HTTP/1.1\r\nHost: localhost").status == 503
            }
            #expect(refused)
            // And once the upstream answers, the client gets it and the file holds it
            gate.release(with: .response(status: 200, headers: ["Content-Type": "text/plain"], body: Data("late".utf8)))
            #expect(try await slow.bodyText == "late")
            await stopped
            // (requests sent before the stop began were forwarded and recorded too)
            let targets = try Cassette.load(from: file).interactions.map(\.request.target)
            #expect(targets.last == "/slow")
            #expect(targets.dropLast().allSatisfy { $0 == "/text" })
        }
    }

    @Test func onRequest_seesReplayedAnswers_inReplayAndInReplayOrRecord() async throws {
        let seen = Lock<[String]>([])
        try await withUpstream { upstream, _ in
            let recorded = cassette(upstream: upstream, targets: ["/text?n=1"])
            for mode in [CassetteServer.Mode.replay, .replayOrRecord] {
                let configuration = CassetteServer.Configuration(
                    faults: .none, onRequest: { entry in seen.withLock { $0.append("\(mode) \(entry)") } },
                    mode: mode, recording: mode == .replay ? nil : RecordingOptions(upstream: try Upstream(upstream)))
                try await withMockServer(cassettes: [recorded], configuration: configuration) { server in
                    _ = try await rawExchange(server.baseURL!, "GET /text?n=1 HTTP/1.1\r\nHost: localhost")
                }
            }
        }
        // The entry as the journal prints it, up to its status and timing.
        let seenLines = seen.withLock { $0 }.map { $0.replacingOccurrences(of: #" \(.*\)$"#, with: "", options: .regularExpression) }
        #expect(seenLines == ["replay #0 GET /text?n=1 → api interaction 0", "replayOrRecord #0 GET /text?n=1 → api interaction 0"])
    }
}
