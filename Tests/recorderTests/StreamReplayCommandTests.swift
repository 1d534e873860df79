import Foundation
import ServiceReplayShared
import Testing
import ServiceReplayTestSupport

/// `recorder replay` serving a stream to curl.
@Suite struct StreamReplayCommandTests {
    static let curl = ["/usr/bin/curl", "/usr/local/bin/curl", "/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: curl != nil, "curl is not installed"))
    func curlN_seesTheFirstEvent_whileTheStreamIsStillOpen() async throws {
        // GIVEN the chat cassette replayed with a stream that stalls after its first event
        let replay = try RunningRecorder([
            "replay", Workspace.recordings.appendingPathComponent("chat").path,
            "--fault", "stall=event:1", "--stream-timing", "recorded",
        ])
        let base = try await replay.address(after: "Replaying 1 cassette")
        // WHEN curl -N asks for the answer
        let pipe = Pipe()
        let received = Lock(Data())
        let curl = try ChildProcess(
            URL(fileURLWithPath: try #require(Self.curl)),
            [
                "-N", "-s", "-X", "POST", "-H", "Content-Type: application/json",
                "-d", #"{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Say hello."}],"stream":true}"#,
                base.appendingPathComponent("v1/chat/completions").absoluteString,
            ], output: pipe)
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                received.withLock { $0.append(chunk) }
            }
        }
        defer { if curl.isRunning { curl.terminate() } }
        // THEN it prints the first event while the stream has not ended (polled, bounded at 60 s: a hang guard only)
        var text = ""
        for _ in 0..<3000 where !text.contains("\n\n") {
            try await Task.sleep(for: .milliseconds(20))
            text = String(decoding: received.withLock { $0 }, as: UTF8.self)
        }
        #expect(text.hasPrefix(#"data: {"id":"chatcmpl-9xK2mQ7a1""#))
        #expect(text.hasSuffix("\n\n"))
        #expect(!text.contains("[DONE]"))
        #expect(curl.isRunning)
        curl.terminate()
        let run = try await replay.stop()
        #expect(run.status == 0)
        #expect(run.stdout.contains("POST /v1/chat/completions → fault rule 1 'stall=event:1' on match 1 (seed 1) (200)\n"))
    }

    @Test func replayLineOfAStream_namesItsStatus() async throws {
        // GIVEN the chat cassette, whose answer is a stream, replayed instantly
        let replay = try RunningRecorder(["replay", Workspace.recordings.appendingPathComponent("chat").path, "--stream-timing", "instant"])
        let base = try await replay.address(after: "Replaying 1 cassette")
        // WHEN the streamed answer is asked for and read
        let http = LoopbackHTTP()
        defer { http.close() }
        let response = try await http.send(
            "POST", "/v1/chat/completions", to: base, headers: [("Content-Type", "application/json")],
            body: Data(#"{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Say hello."}],"stream":true}"#.utf8))
        #expect(response.status == 200)
        let run = try await replay.stop()
        // THEN its line says 200, as for any other answer
        #expect(run.stdout.contains("POST /v1/chat/completions → 200 chat-completions interaction 0\n"), "\(run.stdout)")
    }
}
