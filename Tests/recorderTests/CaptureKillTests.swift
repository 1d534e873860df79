import Foundation
@testable import MockServer
import Testing
import ServiceReplayTestSupport

/// `recorder capture` killed with SIGKILL after N answered exchanges: every reader sees all N with no manual
/// step, the log is folded in exactly once, and a capture that cannot write says so and exits non-zero.
@Suite(.ownEnvironment) struct CaptureKillTests {
    static let count = 5

    /// An upstream answering `/item/I` with a JSON body of its own for each I.
    static let upstreamCassette = Cassette(
        name: "upstream",
        interactions: (0..<count + 1).map { index in
            .stub("GET", "/item/\(index)", json: ["item": .number(JSONNumber(index)), "padding": .string(String(repeating: "x", count: 300))])
        })

    private func get(_ indices: Range<Int>, from base: URL) async throws -> [SeenResponse] {
        let http = LoopbackHTTP()
        defer { http.close() }
        var responses: [SeenResponse] = []
        for index in indices {
            responses.append(try await http.send("GET", "/item/\(index)", to: base))
        }
        return responses
    }

    /// Captures `count` answered exchanges into `Recordings/api.json` of `workspace`, then kills the recorder.
    private func killedCapture(in workspace: Workspace, upstream: URL) async throws -> [SeenResponse] {
        let capture = try RunningRecorder(["capture", "--upstream", upstream.absoluteString, "--out", "Recordings/api.json"], in: workspace.folder)
        let proxy = try await capture.address(after: "Listening on")
        let answered = try await get(0..<Self.count, from: proxy)
        #expect(answered.allSatisfy { $0.status == 200 })
        let run = try await capture.stop(with: SIGKILL)
        #expect(run.status == SIGKILL)
        #expect(workspace.exists("Recordings/api.json.log"))
        return answered
    }

    @Test func killedCapture_isSeenWhole_byEveryReader_andFoldedInOnce() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try await withMockServer(cassettes: [Self.upstreamCassette], configuration: .init(faults: .none, strict: true)) { upstream in
            let upstreamURL = upstream.baseURL!
            let answered = try await killedCapture(in: workspace, upstream: upstreamURL)
            let file = workspace.url("Recordings/api.json")

            // The library's loaders
            #expect(try Cassette.load(from: file).interactions.count == Self.count)
            #expect(try Cassette.loadAll(from: workspace.url("Recordings")).map(\.interactions.count) == [Self.count])
            try await withMockServer(replaying: "api", in: workspace.url("Recordings"), configuration: .init(faults: .none, strict: true)) { server in
                let replayed = try await get(0..<Self.count, from: server.baseURL!)
                #expect(replayed.map(\.body) == answered.map(\.body))
            }

            // recorder list and lint
            let list = try await workspace.run(["list", "Recordings/api.json"])
            #expect(list.status == 0, "\(list.stderr)")
            #expect(list.stdout.split(separator: "\n").filter { $0.contains("/item/") }.count == Self.count)
            let lint = try await workspace.run(["lint"])
            #expect(lint.stdout.hasSuffix("1 cassette, \(Self.count) interactions, 0 findings\n"), "\(lint.stdout)")

            // recorder replay
            let replay = try RunningRecorder(["replay", "Recordings/api.json", "--strict"], in: workspace.folder)
            let replayed = try await get(0..<Self.count, from: try await replay.address(after: "Replaying"))
            #expect(try await replay.stop().status == 0)
            #expect(replayed.map(\.body) == answered.map(\.body))

            // recorder capture without a mode: refuses, saying what the log is and what to do
            let plain = try await workspace.run(["capture", "--upstream", upstreamURL.absoluteString, "--out", "Recordings/api.json"])
            #expect(plain.status == 1)
            // (the same words whether or not the capture had saved Recordings/api.json before it was killed)
            #expect(
                plain.stderr == "recorder: Recordings/api.json holds an interrupted capture (its capture log Recordings/api.json.log, "
                    + "which holds \(Self.count) interactions); capture into it with --mode new-episodes (which keeps them and only appends), "
                    + "or choose another --out\n")
            #expect(workspace.exists("Recordings/api.json.log"))

            // recorder capture --mode new-episodes: replays the N, records one more, folds the log in once
            let before = upstream.journal.count(of: .anyRequest)
            let episodes = try RunningRecorder(
                [
                    "capture", "--upstream", upstreamURL.absoluteString, "--out", "Recordings/api.json",
                    "--mode", "new-episodes",
                ], in: workspace.folder)
            let proxy = try await episodes.address(after: "Listening on")
            let again = try await get(0..<Self.count + 1, from: proxy)
            let run = try await episodes.stop(with: SIGTERM)
            #expect(run.status == 0, "\(run.stderr)")
            // (it says it holds the N, from the log, rather than "a new cassette")
            #expect(
                run.stdout.hasPrefix(
                    "Recording \(upstreamURL.absoluteString) into Recordings/api.json (its capture log from an interrupted "
                        + "capture holds \(Self.count) interactions; requests they match are replayed)\n"), "\(run.stdout)")
            #expect(again.prefix(Self.count).map(\.body) == answered.map(\.body))
            #expect(upstream.journal.count(of: .anyRequest) == before + 1)
            #expect(!workspace.exists("Recordings/api.json.log"))
            #expect(try Cassette(jsonData: workspace.contents("Recordings/api.json"), source: "api.json").interactions.count == Self.count + 1)
        }
    }

    @Test func killedCapture_isReplayedByTheInProcessRecordModes_andFoldedInOnce() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try await withMockServer(cassettes: [Self.upstreamCassette], configuration: .init(faults: .none, strict: true)) { upstream in
            let answered = try await killedCapture(in: workspace, upstream: upstream.baseURL!)
            let file = workspace.url("Recordings/api.json")
            let before = upstream.journal.count(of: .anyRequest)
            // record mode refuses it as an existing cassette
            let refused = RecordingOptions(upstream: try Upstream(upstream.baseURL!), file: file)
            await #expect(throws: MockServerError.self) {
                try await withMockServer(cassettes: [], configuration: .init(faults: .none, mode: .record, recording: refused)) { _ in }
            }
            // replay-or-record replays all N without asking the upstream
            let options = RecordingOptions(upstream: try Upstream(upstream.baseURL!), file: file)
            try await withMockServer(cassettes: [], configuration: .init(faults: .none, mode: .replayOrRecord, recording: options)) { server in
                let replayed = try await get(0..<Self.count, from: server.baseURL!)
                #expect(replayed.map(\.body) == answered.map(\.body))
            }
            #expect(upstream.journal.count(of: .anyRequest) == before)
            #expect(!workspace.exists("Recordings/api.json.log"))
            #expect(try Cassette.load(from: file).interactions.count == Self.count)
        }
    }

    @Test(.disabled(if: isUnderThreadSanitizer, "ThreadSanitizer's runtime cannot run under a file-size limit"))
    func diskFilling_midCapture_givesOneErrorLine_andANonZeroExit_keepingWhatWasRecorded() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try await withMockServer(cassettes: [Self.upstreamCassette], configuration: .init(faults: .none, strict: true)) { upstream in
            // Given a capture whose files may not grow beyond 2 KB (four blocks), as on a disk that fills up
            let capture = try RunningRecorder(
                ["capture", "--upstream", upstream.baseURL!.absoluteString, "--out", "Recordings/api.json"],
                in: workspace.folder, limits: ProcessLimits(fileBlocks: 4))
            let proxy = try await capture.address(after: "Listening on")
            // When more exchanges are answered than fit
            let answered = try await get(0..<Self.count, from: proxy)
            #expect(answered.allSatisfy { $0.status == 200 }, "\(answered.map { ($0.status, String(decoding: $0.body, as: UTF8.self)) })")
            let run = try await capture.stop(with: SIGTERM)
            // Then it exits non-zero with one error line
            #expect(run.status == 1)
            let errors = run.stderr.split(separator: "\n")
            #expect(errors.count == 1, "\(run.stderr)")
            #expect(errors.first?.hasPrefix("recorder: ") == true)
            #expect(errors.first?.contains("File too large") == true, "\(run.stderr)")
            // And what did reach the disk is intact and readable: a prefix of the exchanges
            let kept = try Cassette.load(from: workspace.url("Recordings/api.json"))
            #expect(kept.interactions.count >= 1)
            #expect(kept.interactions.count < Self.count)
            #expect(kept.interactions.map(\.request.target) == (0..<kept.interactions.count).map { "/item/\($0)" })
        }
    }
}
