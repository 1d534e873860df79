import Foundation
import Locking
@testable import MockServer
import Testing
import TestSupport

/// `recorder capture` in front of an upstream that streams server-sent events.
@Suite struct StreamCaptureCommandTests {
    /// An upstream whose every answer is the test's live stream.
    struct StreamingUpstream: HTTPHandler {
        let stream: LiveStream
        func reply(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPReply { .live(stream) }
    }

    @Test(.enabled(if: StreamReplayCommandTests.curl != nil, "curl is not installed"))
    func capture_relaysTheFirstEvent_beforeTheUpstreamSendsTheLast_andRecordsEachEvent() async throws {
        // GIVEN an upstream on loopback whose stream the test feeds, and recorder capture in front of it
        let workspace = try Workspace()
        defer { workspace.remove() }
        let stream = LiveStream(head: HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"]))
        let upstream = HTTPServer(configuration: .init(), handler: StreamingUpstream(stream: stream))
        let upstreamURL = try await upstream.start()
        let capture = try RunningRecorder(["capture", "--upstream", upstreamURL.absoluteString, "--out", "Recordings/stream.json"],
                                          in: workspace.folder)
        let proxy = try await capture.address(after: "Listening on")
        // WHEN curl -N asks through the proxy and the upstream has sent only its first event
        let pipe = Pipe()
        let received = Lock(Data())
        let curl = try ChildProcess(URL(fileURLWithPath: try #require(StreamReplayCommandTests.curl)), ["-N", "-s", proxy.appendingPathComponent("events").absoluteString], output: pipe)
        defer { if curl.isRunning { curl.terminate() } }
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                received.withLock { $0.append(chunk) }
            }
        }
        stream.send(Data("data: one\n\n".utf8))
        // THEN the client has that event while the stream is still open (polled, bounded at 10 s)
        var text = ""
        for _ in 0..<500 where text != "data: one\n\n" {
            try await Task.sleep(for: .milliseconds(20))
            text = String(decoding: received.withLock { $0 }, as: UTF8.self)
        }
        #expect(text == "data: one\n\n")
        #expect(curl.isRunning)
        // WHEN the upstream sends its last event and ends
        stream.send(Data("event: done\ndata: two\n\n".utf8))
        stream.finish(.complete)
        for _ in 0..<500 where curl.isRunning {
            try await Task.sleep(for: .milliseconds(20))
        }
        // THEN the client got both, and the cassette holds each event with its offset
        #expect(String(decoding: received.withLock { $0 }, as: UTF8.self) == "data: one\n\nevent: done\ndata: two\n\n")
        let run = try await capture.stop(with: SIGTERM)
        await upstream.stop()
        #expect(run.status == 0, "\(run.stderr)")
        let saved = try Cassette.load(from: workspace.url("Recordings/stream.json"))
        guard case .stream(let recorded)? = saved.interactions.first?.response?.body.form else {
            Issue.record("expected a stream body, found \(String(describing: saved.interactions.first?.response?.body))")
            return
        }
        #expect(recorded.parts.map(\.content) == [.event(ServerSentEventFields(data: "one")),
                                                  .event(ServerSentEventFields(event: "done", data: "two"))])
        #expect(recorded.parts[1].offsetMs >= recorded.parts[0].offsetMs)
        #expect(saved.interactions.first?.response?.headers["Content-Type"] == "text/event-stream")
    }
}
