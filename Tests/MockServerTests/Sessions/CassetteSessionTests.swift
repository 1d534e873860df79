import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import Testing

/// What each record mode does with a test's cassette, against a real upstream on loopback.
@Suite struct CassetteSessionTests {
    struct TestFailed: Error {}

    /// Resolves `name` in `folder` for `mode` and runs one request for `/json` through the server; `passes`
    /// says whether the test counts as passed (`nil`: its helper cannot tell, as `withMockServer`'s). The client's 30 s timeout is only a hang guard: a recorded
    /// exchange crosses two servers and two URLSessions, which a loaded machine can hold up for seconds.
    static func run(
        _ mode: RecordMode, _ name: String = "api/things", in folder: URL, upstream: URL?,
        environment: [String: String] = [:], passes: Bool? = true, path: String = "json"
    ) async throws -> (status: Int, kinds: [JournalOutcome.Kind]) {
        let cassette = try CassetteSession(
            names: [name], folder: folder, upstream: upstream?.absoluteString, mode: mode,
            configuration: .init(faults: .none), test: "things", environment: environment)
        return try await cassette.withServer(
            { server in
                let (_, response) = try await withURLSession(timeout: 30) { session in
                    try await session.httpData(for: URLRequest(url: server.baseURL!.appendingPathComponent(path)))
                }
                return (response.statusCode, server.journal.entries.map(\.outcome.kind))
            }, passed: { _ in passes })
    }

    @discardableResult
    static func withFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    @Test func none_missingCassette_namesTheFileAndTheCommandThatRecordsIt() async throws {
        try await Self.withFolder { folder in
            let error = await #expect(throws: MockServerError.self) {
                try await Self.run(.none, in: folder, upstream: nil)
            }
            #expect(
                error?.description
                    == "no cassette api/things at \(folder.path)/api/things.json; record it with `MOCKSERVER_RECORD=once swift test --filter things` (from xcodebuild, `TEST_RUNNER_MOCKSERVER_RECORD=once xcodebuild test ...`)"
            )
        }
    }

    @Test func none_missingCassette_withANearNameInTheFolder_asksAboutIt_andGivesNoRecordAdvice() async throws {
        try await Self.withFolder { folder in
            // GIVEN api/things.json, and a test naming api/thigns
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("api"), withIntermediateDirectories: true)
            try Cassette(name: "things").save(to: folder.appendingPathComponent("api/things.json"))
            let error = await #expect(throws: MockServerError.self) {
                try await Self.run(.none, "api/thigns", in: folder, upstream: nil)
            }
            // THEN the sentence asks about the near name, and does not tell to record a duplicate under the typo
            #expect(error?.description == "no cassette api/thigns at \(folder.path)/api/thigns.json; did you mean api/things? (\(folder.path)/api/things.json)")
            // (the name given with its extension too)
            let withExtension = await #expect(throws: MockServerError.self) {
                try await Self.run(.none, "api/thigns.json", in: folder, upstream: nil)
            }
            #expect(withExtension?.description.hasSuffix("; did you mean api/things? (\(folder.path)/api/things.json)") == true)
        }
    }

    @Test func once_recordsAMissingCassette_thenReplaysItWithTheUpstreamGone() async throws {
        try await Self.withFolder { folder in
            let first = try await withUpstream { upstream, log in
                let result = try await Self.run(.once, in: folder, upstream: upstream)
                #expect(log.all.count == 1)
                return result
            }
            #expect(first.status == 200)
            #expect(first.kinds == [.recorded])
            let cassette = try Cassette.load(from: folder.appendingPathComponent("api/things.json"))
            #expect(cassette.name == "api-things")
            #expect(cassette.interactions.count == 1)
            let second = try await Self.run(.once, in: folder, upstream: URL(string: "http://127.0.0.1:\(try await closedPort())"))
            #expect(second.status == 200)
            #expect(second.kinds == [.matched])
        }
    }

    @Test func newEpisodes_replaysWhatMatches_andAppendsTheRest() async throws {
        try await Self.withFolder { folder in
            let file = folder.appendingPathComponent("api/things.json")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try await withUpstream { upstream, log in
                try Cassette(name: "things", upstream: upstream.absoluteString, interactions: [.stub("GET", "/text", text: "old")]).save(to: file)
                let result = try await Self.run(.newEpisodes, in: folder, upstream: upstream)
                #expect(result.kinds == [.recorded])
                #expect(log.all.map(\.path) == ["/json"])
            }
            #expect(try Cassette.load(from: file).interactions.map(\.request.target) == ["/text", "/json"])
        }
    }

    @Test(arguments: [true, false])
    func all_replacesTheCassette_onlyWhenTheTestPassed(passes: Bool) async throws {
        try await Self.withFolder { folder in
            let file = folder.appendingPathComponent("api/things.json")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Cassette(name: "things", interactions: [.stub("GET", "/text", text: "old")]).save(to: file)
            let old = try Data(contentsOf: file)
            try await withUpstream { upstream, _ in
                if passes {
                    _ = try await Self.run(.all, in: folder, upstream: upstream)
                } else {
                    let error = await #expect(throws: MockServerError.self) {
                        try await Self.run(.all, in: folder, upstream: upstream, passes: false)
                    }
                    #expect(
                        error?.description.hasPrefix(
                            "the test failed, so MOCKSERVER_RECORD=all left \(file.path) as it was; the new recording is in \(file.path).recording-") == true)
                }
            }
            let siblings = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path).sorted()
            if passes {
                #expect(try Cassette.load(from: file).interactions.map(\.request.target) == ["/json"])
                #expect(siblings == ["things.json"])
            } else {
                #expect(try Data(contentsOf: file) == old)
                #expect(siblings.count == 2)
                let kept = try #require(siblings.first { $0 != "things.json" })
                #expect(try Cassette.load(from: file.deletingLastPathComponent().appendingPathComponent(kept)).interactions.count == 1)
            }
        }
    }

    /// A cassette whose hand-written parts a re-recording must keep.
    static func handWritten(_ interactions: [Interaction]) -> Cassette {
        Cassette(
            name: "things", note: "error templates from the API's documentation",
            matching: MatchRules(ignoredQueryParameters: ["token"], headers: ["Accept"]),
            errorTemplates: ["rate_limit": RecordedResponse(status: 429, headers: ["Retry-After": "1"], body: .text("slow down"))],
            interactions: interactions)
    }

    @Test func all_keepsTheHandWrittenParts_ofTheOldCassette() async throws {
        try await Self.withFolder { folder in
            let file = folder.appendingPathComponent("api/things.json")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let old = Self.handWritten([.stub("GET", "/text", text: "old")])
            try old.save(to: file)
            try await withUpstream { upstream, _ in
                _ = try await Self.run(.all, in: folder, upstream: upstream)
            }
            let new = try Cassette.load(from: file)
            #expect(new.interactions.map(\.request.target) == ["/json"])
            #expect(new.note == old.note)
            #expect(new.matching == old.matching)
            #expect(new.errorTemplates == old.errorTemplates)
        }
    }

    /// `api/things.json` in `folder`, with the hand-written parts and one interaction for /json and one for /text,
    /// as two tests sharing it would use them; and its bytes.
    static func sharedCassette(in folder: URL) throws -> (file: URL, bytes: Data) {
        let file = folder.appendingPathComponent("api/things.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try handWritten([.stub("GET", "/json", text: "old json"), .stub("GET", "/text", text: "old text")]).save(to: file)
        return (file, try Data(contentsOf: file))
    }

    @Test func all_aFailingTestSharingACassetteAnEarlierTestReplaced_putsTheCassetteBackAsItWasBeforeTheRun() async throws {
        try await Self.withFolder { folder in
            // Given a cassette two tests share: one asks for /json, the other for /text
            let (file, before) = try Self.sharedCassette(in: folder)
            try await withUpstream { upstream, _ in
                // When, under `all`, the first passes (replacing it from scratch) and the second fails
                _ = try await Self.run(.all, in: folder, upstream: upstream)
                #expect(try Cassette.load(from: file).interactions.map(\.request.target) == ["/json"])
                let error = await #expect(throws: MockServerError.self) {
                    try await Self.run(.all, in: folder, upstream: upstream, passes: false, path: "text")
                }
                // Then the cassette is as it was before the run, /text included, and the sentence says so
                #expect(try Data(contentsOf: file) == before)
                #expect(
                    error?.description.hasPrefix(
                        "the test failed, so MOCKSERVER_RECORD=all put \(file.path) back as it was before this run (an earlier test sharing it had replaced it); the new recording is in \(file.path).recording-"
                    ) == true)
                // And a later passing test of the run leaves it so
                _ = try await Self.run(.all, in: folder, upstream: upstream)
                #expect(try Data(contentsOf: file) == before)
            }
        }
    }

    @Test func all_passPassFail_putsTheCassetteBackAsItWasBeforeTheRun_notAsTheFirstPassLeftIt() async throws {
        try await Self.withFolder { folder in
            // Given a cassette three tests share: /json, /text, then /binary
            let file = folder.appendingPathComponent("api/things.json")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Self.handWritten([
                .stub("GET", "/json", text: "old json"), .stub("GET", "/text", text: "old text"),
                .stub("GET", "/binary", text: "old binary"),
            ]).save(to: file)
            let before = try Data(contentsOf: file)
            try await withUpstream { upstream, _ in
                // When, under `all`, the first two pass (each replacing the cassette: the first from scratch,
                // the second appending to that) and the third fails
                _ = try await Self.run(.all, in: folder, upstream: upstream)
                _ = try await Self.run(.all, in: folder, upstream: upstream, path: "text")
                let second = try Data(contentsOf: file)
                #expect(try Cassette.load(from: file).interactions.map(\.request.target) == ["/json", "/text"])
                let error = await #expect(throws: MockServerError.self) {
                    try await Self.run(.all, in: folder, upstream: upstream, passes: false, path: "binary")
                }
                // Then the cassette is byte for byte as before the run, not as either pass left it, and the
                // sentence says it was put back
                let after = try Data(contentsOf: file)
                #expect(after == before)
                #expect(after != second)
                #expect(
                    error?.description.hasPrefix(
                        "the test failed, so MOCKSERVER_RECORD=all put \(file.path) back as it was before this run (an earlier test sharing it had replaced it); the new recording is in \(file.path).recording-"
                    ) == true)
            }
        }
    }

    @Test func all_aTestThatCannotTellSharingACassetteAnEarlierTestReplaced_putsItBack_andSaysSo() async throws {
        try await Self.withFolder { folder in
            // Given a cassette two tests share, the trait's (which sees its outcome) and withMockServer's (which
            // cannot see a failed #expect): one asks for /json, the other for /text
            let (file, before) = try Self.sharedCassette(in: folder)
            try await withUpstream { upstream, _ in
                // When, under `all`, the first passes (replacing it) and the second cannot tell
                _ = try await Self.run(.all, in: folder, upstream: upstream)
                #expect(try Data(contentsOf: file) != before)
                let error = await #expect(throws: MockServerError.self) {
                    try await Self.run(.all, in: folder, upstream: upstream, passes: nil, path: "text")
                }
                // Then the cassette is as it was before the run, and the sentence says so, not "left as it was"
                #expect(try Data(contentsOf: file) == before)
                let description = try #require(error?.description)
                #expect(
                    description.hasPrefix(
                        "MOCKSERVER_RECORD=all cannot tell here whether the test recorded a failure without throwing (such as a failed XCTAssert), so it put \(file.path) back as it was before this run (an earlier test sharing it had replaced it); the new recording is in \(file.path).recording-"
                    ))
                // And what the sentence says to accept holds both tests' exchanges
                let pending = try #require(description.split(separator: "`mv '").last?.split(separator: "'").first)
                #expect(try Cassette.load(from: URL(fileURLWithPath: String(pending))).interactions.map(\.request.target) == ["/json", "/text"])
                // And a later passing test of the run leaves the cassette so
                _ = try await Self.run(.all, in: folder, upstream: upstream)
                #expect(try Data(contentsOf: file) == before)
            }
        }
    }

    @Test func all_aFailingTestSharingACassetteTheRunCreated_removesIt_andKeepsEveryExchangeAside() async throws {
        try await Self.withFolder { folder in
            let file = folder.appendingPathComponent("api/things.json")
            try await withUpstream { upstream, _ in
                // Given no cassette before the run, when under `all` the first test records it and passes
                _ = try await Self.run(.all, in: folder, upstream: upstream)
                #expect(FileManager.default.fileExists(atPath: file.path))
                // and the second fails
                let error = await #expect(throws: MockServerError.self) {
                    try await Self.run(.all, in: folder, upstream: upstream, passes: false, path: "text")
                }
                // Then the cassette is gone again, as before the run, and the sentence says so
                #expect(!FileManager.default.fileExists(atPath: file.path))
                #expect(
                    error?.description.hasPrefix(
                        "the test failed, so MOCKSERVER_RECORD=all removed \(file.path), which did not exist before this run (an earlier test sharing it had recorded it); the new recording is in \(file.path).recording-"
                    ) == true)
                // And the recording kept aside holds both tests' exchanges
                let kept = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
                #expect(kept.count == 1)
                let aside = file.deletingLastPathComponent().appendingPathComponent(try #require(kept.first))
                #expect(try Cassette.load(from: aside).interactions.map(\.request.target) == ["/json", "/text"])
            }
        }
    }

    @Test func all_whenTheOutcomeCannotBeSeen_keepsTheNewRecordingAside_andSaysHowToAcceptIt() async throws {
        try await Self.withFolder { folder in
            let file = folder.appendingPathComponent("things.json")
            try Self.handWritten([.stub("GET", "/text", text: "old")]).save(to: file)
            let old = try Data(contentsOf: file)
            let error = try await withUpstream { upstream, _ in
                let cassette = try CassetteSession(
                    names: ["things"], folder: folder, upstream: upstream.absoluteString, mode: .all,
                    configuration: .init(faults: .none), test: "things", environment: [:])
                return await #expect(throws: MockServerError.self) {
                    try await cassette.withServer(
                        { server in
                            _ = try await withURLSession(timeout: 30) { session in
                                try await session.httpData(for: URLRequest(url: server.baseURL!.appendingPathComponent("json")))
                            }
                        }, passed: { _ in nil })
                }
            }
            #expect(try Data(contentsOf: file) == old)
            let kept = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0 != "things.json" })
            let pending = folder.appendingPathComponent(kept).path
            #expect(error?.code == .cannotSave)
            #expect(
                error?.description
                    == "MOCKSERVER_RECORD=all cannot tell here whether the test recorded a failure without throwing (such as a failed XCTAssert), so it left \(file.path) as it was; the new recording is in \(pending): if the test passed, accept it with `mv '\(pending)' '\(file.path)'`"
            )
            // Accepted as the sentence says, it is the new recording with the hand-written parts kept.
            let accepted = try Cassette.load(from: URL(fileURLWithPath: pending))
            #expect(accepted.interactions.map(\.request.target) == ["/json"])
            #expect(accepted.errorTemplates.keys.sorted() == ["rate_limit"])
        }
    }

    @Test func live_forwardsEverything_andWritesNothing() async throws {
        try await Self.withFolder { folder in
            try await withUpstream { upstream, log in
                let result = try await Self.run(.live, in: folder, upstream: upstream)
                #expect(result.kinds == [.passedThrough])
                #expect(log.all.count == 1)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        }
    }

    @Test func upstreamVariable_winsOverTheCallSite() async throws {
        try await Self.withFolder { folder in
            try await withUpstream { upstream, log in
                let result = try await Self.run(
                    .once, in: folder, upstream: URL(string: "https://api.github.com"),
                    environment: ["MOCKSERVER_UPSTREAM": upstream.absoluteString])
                #expect(result.status == 200)
                #expect(log.all.count == 1)
            }
        }
    }

    @Test func recording_withNoUpstreamAnywhere_namesTheCassette() async throws {
        try await Self.withFolder { folder in
            let error = await #expect(throws: MockServerError.self) {
                try await Self.run(.once, in: folder, upstream: nil)
            }
            #expect(
                error?.description
                    == "recording api/things needs an upstream: pass `upstream:` where the test names the cassette, give the cassette an `upstream` field, or set MOCKSERVER_UPSTREAM"
            )
        }
    }

    @Test func recordingModes_takeOneCassette() async throws {
        try await Self.withFolder { folder in
            #expect(throws: MockServerError(.invalidConfiguration, "MOCKSERVER_RECORD=all records one cassette per test, not 2 (a, b)")) {
                try CassetteSession(
                    names: ["a", "b"], folder: folder, upstream: "https://api.github.com", mode: .all,
                    configuration: .init(), test: nil, environment: [:])
            }
        }
    }

    @Test func oldCassette_earnsAWarning_pastTheMaximumAge() async throws {
        try await Self.withFolder { folder in
            let recordedAt = Date(timeIntervalSinceNow: -40 * 86_400)
            try Cassette(name: "things", recordedAt: recordedAt).save(to: folder.appendingPathComponent("things.json"))
            let resolve = { (days: String) in
                try CassetteSession(
                    names: ["things"], folder: folder, upstream: nil, mode: .none, configuration: .init(),
                    test: nil, environment: ["MOCKSERVER_MAX_AGE_DAYS": days]
                ).warnings
            }
            #expect(
                try resolve("30") == [
                    "cassette things was recorded 40 days ago, more than MOCKSERVER_MAX_AGE_DAYS=30; re-record it with `MOCKSERVER_RECORD=all swift test`"
                ])
            #expect(try resolve("45").isEmpty)
            #expect(throws: MockServerError(.invalidConfiguration, "MOCKSERVER_MAX_AGE_DAYS='soon' is not a whole number of days")) { try resolve("soon") }
        }
    }
}
