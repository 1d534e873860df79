import Foundation
import MockServer
import Testing

/// What the recorder does when its own process runs out of something: disk space (a file-size limit, whose
/// failed writes take the same path as a full disk's), file descriptors, or a cassette cut short on disk.
/// Each ends in one clear sentence and loses nothing already recorded.
@Suite struct ResourceExhaustionTests {
    /// A cassette with a small and a large answer: 64 bytes and 64 KB.
    private static func upstreamCassette() throws -> Cassette {
        let large = String(repeating: "0123456789abcdef", count: 4096)
        let json = """
            {"format": "servicereplay-cassette", "version": 1, "name": "sizes", "interactions": [
              {"request": {"method": "GET", "target": "/small", "headers": [], "body": {"text": ""}},
               "response": {"status": 200, "headers": [["Content-Type", "text/plain"]], "body": {"text": "\(String(repeating: "s", count: 64))"}}},
              {"request": {"method": "GET", "target": "/large", "headers": [], "body": {"text": ""}},
               "response": {"status": 200, "headers": [["Content-Type", "text/plain"]], "body": {"text": "\(large)"}}}
            ]}
            """
        return try Cassette(jsonData: Data(json.utf8), source: "sizes.json")
    }

    /// 16 blocks: 8 or 16 KB depending on the shell, above the small exchange's cassette, below the large one's.
    private static let smallDisk = ProcessLimits(fileBlocks: 16)

    @Test(.disabled(if: isUnderThreadSanitizer, "ThreadSanitizer's runtime cannot run under a file-size limit"))
    func capture_whenTheDiskFills_saysSo_andKeepsTheCassetteItHadSaved() async throws {
        // Given capture in front of an upstream, with room on disk for a small cassette only
        let workspace = try Workspace()
        defer { workspace.remove() }
        try await withMockServer(cassettes: [Self.upstreamCassette()], configuration: .init(faults: .none)) { upstream in
            let capture = try RunningRecorder(
                ["capture", "--upstream", upstream.baseURL!.absoluteString, "--out", "sizes.json"],
                in: workspace.folder, limits: Self.smallDisk)
            let proxy = try await capture.address(after: "Listening on")
            let http = LoopbackHTTP()
            defer { http.close() }
            // When a small exchange is recorded (in the capture log, which every reader applies), and then one
            // too large for the disk
            #expect(try await http.send("GET", "/small", to: proxy).status == 200)
            #expect(try Cassette.load(from: workspace.url("sizes.json")).interactions.map(\.request.target) == ["/small"])
            let large = try await http.send("GET", "/large", to: proxy)
            let run = try await capture.stop(with: SIGTERM)
            // Then the client got the large answer all the same, the exchange line and the exit say why it was
            // not saved in one sentence each, and what was recorded before is intact on disk
            #expect(large.status == 200 && large.body.count == 65536)
            #expect(run.stdout.contains("GET /large → 200, "), "\(run.stdout)")
            #expect(run.stdout.contains(", not saved yet: "), "\(run.stdout)")
            #expect(run.status == 1)
            let errorLines = run.stderr.split(separator: "\n")
            #expect(errorLines.count == 1 && errorLines[0].hasPrefix("recorder: ") && errorLines[0].contains("sizes.json"), "\(run.stderr)")
            #expect(try Cassette.load(from: workspace.url("sizes.json")).interactions.map(\.request.target) == ["/small"])
        }
    }

    @Test(.disabled(if: isUnderThreadSanitizer, "ThreadSanitizer's runtime cannot run under a file-size limit"))
    func redact_whenTheDiskFills_saysSo_andLeavesTheCassetteAsItWas() async throws {
        // Given a cassette holding a secret, larger than the room left on disk
        let workspace = try Workspace()
        defer { workspace.remove() }
        let cassette = try Self.upstreamCassette()
        var leaky = cassette
        leaky.interactions[1].request.headers.add(name: "Authorization", value: "Bearer live-secret")
        try leaky.save(to: workspace.url("sizes.json"))
        let before = try workspace.contents("sizes.json")
        // When redacting it
        let run = try await workspace.run(["redact", "sizes.json"], limits: Self.smallDisk)
        // Then one sentence names the file, the exit status is 1, and the file keeps its bytes
        #expect(run.status == 1)
        let errorLines = run.stderr.split(separator: "\n")
        #expect(errorLines.count == 1 && errorLines[0].hasPrefix("recorder: sizes.json: "), "\(run.stderr)")
        #expect(try workspace.contents("sizes.json") == before)
    }
}

extension ResourceExhaustionTests {
    @Test func replay_outOfDescriptors_warnsOnce_servesItsConnections_andAcceptsAgainWhenTheyClose() async throws {
        // Given `recorder replay` allowed 32 descriptors, fewer than the connections about to arrive
        let workspace = try Workspace()
        defer { workspace.remove() }
        try Self.upstreamCassette().save(to: workspace.url("sizes.json"))
        let replay = try RunningRecorder(["replay", "sizes.json"], in: workspace.folder, limits: ProcessLimits(openFiles: 32))
        let port = try await replay.address(after: "Replaying").port!
        // When 40 clients connect
        let connections = try await offThePool { try (0..<40).map { _ in try PlainConnection(port: port) } }
        // Then it says once that it ran out, and still answers the first client
        let warning = try await replay.line(containing: "file descriptors", onStandardError: true)
        #expect(warning == "recorder: " + "out of file descriptors (see ulimit -n); open connections are still served, new ones wait until some close")
        #expect(try await offThePool { try connections[0].get("/small") } == 200)
        // And once the first 30 hang up, the last client, which waited in the backlog, is answered too
        for connection in connections[..<30] { connection.disconnect() }
        #expect(try await offThePool { try connections[39].get("/small") } == 200)
        let run = try await replay.stop()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }
}

extension ResourceExhaustionTests {
    /// The login recording cut at a third of its bytes, as a full disk or a killed copy leaves a file.
    private static func truncatedLogin(in workspace: Workspace) throws -> Data {
        let whole = try Data(contentsOf: Workspace.recordings.appendingPathComponent("login/login.json"))
        let truncated = whole.prefix(whole.count / 3)
        try truncated.write(to: workspace.url("login.json"))
        return truncated
    }

    @Test(arguments: [
        ["replay", "login.json"], ["lint", "login.json"], ["redact", "login.json"], ["show", "login.json", "1"],
        ["capture", "--upstream", "http://127.0.0.1:9", "--out", "login.json", "--mode", "new-episodes"],
    ])
    func truncatedCassette_isReportedAsCutShort_andLeftAsItIs(arguments: [String]) async throws {
        // Given a cassette file cut short
        let workspace = try Workspace()
        defer { workspace.remove() }
        let truncated = try Self.truncatedLogin(in: workspace)
        // When a command reads it
        let run = try await workspace.run(arguments)
        // Then it fails saying where the JSON stops and that the file was cut short, and the file keeps its bytes
        #expect(run.status == 1)
        let report = run.stderr + run.stdout
        #expect(report.contains("login.json: invalid JSON at line "), "\(report)")
        #expect(report.contains("; the file ends before its JSON does, so it was cut short"), "\(report)")
        #expect(try workspace.contents("login.json") == truncated)
    }
}

extension ResourceExhaustionTests {
    /// Descriptor limits from too few to start an event loop (each needs a wake-up pipe) to enough for every
    /// loop, as a many-core Mac with a shell's limit of 256 would be. Below 7, Dispatch itself, which the
    /// recorder's runtime needs, may trap on Linux before the recorder can say anything.
    static let startingLimits = Array(7...20)

    @Test func replay_underALowDescriptorLimit_servesWithFewerLoops_orSaysWhyItCannot_neverCrashes() async throws {
        // Given a cassette
        let workspace = try Workspace()
        defer { workspace.remove() }
        try Self.upstreamCassette().save(to: workspace.url("sizes.json"))
        var served: [Int] = [], refused: [Int] = []
        for limit in Self.startingLimits {
            // When `recorder replay` starts with that many descriptors allowed
            let replay = try RunningRecorder(["replay", "sizes.json"], in: workspace.folder, limits: ProcessLimits(openFiles: limit))
            if (try? await replay.address(after: "Replaying")) != nil {
                // Then it either listens (warning when it runs fewer event loops than cores; a connection may
                // then wait for a descriptor, as `replay_outOfDescriptors_...` shows)
                // (SIGKILL: so short of descriptors, Dispatch may have no signalfd to deliver SIGINT with)
                let run = try await replay.stop(with: SIGKILL)
                #expect(run.stderr.isEmpty || run.stderr.hasPrefix("warning: MockServer serves from "), "limit \(limit): \(run.stderr)")
                served.append(limit)
            } else {
                // Or it exits with status 1 and one sentence (after the warning, when a loop started), never by a signal
                let run = try await replay.stop(with: nil)
                #expect(run.status == 1, "limit \(limit): \(run.stderr)")
                let lines = run.stderr.split(separator: "\n")
                #expect(lines.last?.hasPrefix("recorder: ") == true, "limit \(limit): \(run.stderr)")
                #expect(lines.dropLast().allSatisfy { $0.hasPrefix("warning: MockServer serves from ") }, "limit \(limit): \(run.stderr)")
                if run.stderr.contains("Cannot start an event loop") {
                    #expect(
                        run.stderr.hasSuffix(
                            ": Cannot start an event loop to serve from: pipe failed: Too many open files; raise the descriptor limit (ulimit -n).\n"),
                        "limit \(limit): \(run.stderr)")
                }
                refused.append(limit)
            }
        }
        // And the range covers both outcomes
        #expect(!served.isEmpty && !refused.isEmpty, "served under \(served), refused under \(refused)")
    }
}
