import Foundation
import ServiceReplayShared
@testable import MockServer
import Testing
import ServiceReplayTestSupport

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
        let capture = try RunningRecorder(
            ["capture", "--upstream", upstreamURL.absoluteString, "--out", "Recordings/stream.json"],
            in: workspace.folder)
        let proxy = try await capture.address(after: "Listening on")
        // WHEN curl -N asks through the proxy and the upstream has sent only its first event
        let pipe = Pipe()
        let received = Lock(Data())
        let curl = try ChildProcess(
            URL(fileURLWithPath: try #require(StreamReplayCommandTests.curl)), ["-N", "-s", proxy.appendingPathComponent("events").absoluteString], output: pipe
        )
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
        // THEN the client has that event while the stream is still open (polled, bounded at 60 s: a hang guard only)
        var text = ""
        for _ in 0..<3000 where text != "data: one\n\n" {
            try await Task.sleep(for: .milliseconds(20))
            text = String(decoding: received.withLock { $0 }, as: UTF8.self)
        }
        #expect(text == "data: one\n\n")
        #expect(curl.isRunning)
        // WHEN the upstream sends its last event and ends
        stream.send(Data("event: done\ndata: two\n\n".utf8))
        stream.finish(.complete)
        for _ in 0..<3000 where curl.isRunning {
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
        #expect(
            recorded.parts.map(\.content) == [
                .event(ServerSentEventFields(data: "one")),
                .event(ServerSentEventFields(event: "done", data: "two")),
            ])
        #expect(recorded.parts[1].offsetMs >= recorded.parts[0].offsetMs)
        #expect(saved.interactions.first?.response?.headers["Content-Type"] == "text/event-stream")
    }

    /// Starts an upstream answering with `stream` and `recorder capture` in front of it, writing
    /// `Recordings/stream.json` in `workspace`.
    private func capture(_ stream: LiveStream, in workspace: Workspace) async throws -> (HTTPServer, RunningRecorder, URL) {
        let upstream = HTTPServer(configuration: .init(), handler: StreamingUpstream(stream: stream))
        let upstreamURL = try await upstream.start()
        let capture = try RunningRecorder(
            ["capture", "--upstream", upstreamURL.absoluteString, "--out", "Recordings/stream.json"],
            in: workspace.folder)
        return (upstream, capture, try await capture.address(after: "Listening on"))
    }

    private func recordedStream(in workspace: Workspace) throws -> RecordedStream? {
        let saved = try Cassette.load(from: workspace.url("Recordings/stream.json"))
        guard saved.interactions.count == 1, case .stream(let stream)? = saved.interactions.first?.response?.body.form else {
            Issue.record("expected one stream, found \(saved.interactions)")
            return nil
        }
        return stream
    }

    @Test(arguments: [SIGTERM, SIGKILL])
    func captureStoppedMidStream_keepsWhatArrived_markedUnfinished(signal: Int32) async throws {
        // GIVEN a capture relaying a stream that has sent one event and never ends
        let workspace = try Workspace()
        defer { workspace.remove() }
        let stream = LiveStream(head: HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"]))
        let (upstream, capture, proxy) = try await capture(stream, in: workspace)
        let connection = try PlainConnection(port: try #require(proxy.port))
        defer { connection.disconnect() }
        #expect(try await offThePool { try connection.get("/events") } == 200)
        stream.send(Data("id: 1\ndata: one\n\n".utf8))
        _ = try await offThePool { try connection.read(through: "data: one\n\n") }
        // WHEN the recorder is stopped (or killed) with the stream still open
        let run = try await capture.stop(with: signal)
        stream.finish(.complete)
        await upstream.stop()
        // THEN it stops without waiting for the stream, and every reader sees the event, in a stream marked unfinished
        if signal == SIGTERM {
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("GET /events → 200,"))
            #expect(run.stdout.contains(", stream of 1 part, unfinished, interaction 0"))
        } else {
            #expect(run.status == SIGKILL)
        }
        let recorded = try recordedStream(in: workspace)
        #expect(recorded?.parts.map(\.content) == [.event(ServerSentEventFields(id: "1", data: "one"))])
        #expect(recorded?.ending == .unfinished)
    }

    @Test func brokenUpstreamStream_isRecordedAsBroken_withAWarningOnStandardError() async throws {
        // GIVEN an upstream that sends one event and closes before the end of its body
        let workspace = try Workspace()
        defer { workspace.remove() }
        let stream = LiveStream(head: HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"]))
        stream.send(Data("data: one\n\n".utf8))
        stream.finish(.cut)
        let (upstream, capture, proxy) = try await capture(stream, in: workspace)
        // WHEN a client asks through the capture
        let connection = try PlainConnection(port: try #require(proxy.port))
        defer { connection.disconnect() }
        #expect(try await offThePool { try connection.get("/events") } == 200)
        // THEN the user is told on standard error
        let warning = try await capture.line(containing: "broke the stream", onStandardError: true)
        #expect(
            warning == "recorder: GET /events: the upstream broke the stream after 1 part"
                + " (\(warning.split(separator: "(").dropFirst().first.map { $0.split(separator: ")").first ?? "" } ?? "")); "
                + "it is recorded as broken, and replay breaks it at the same point.")
        let run = try await capture.stop(with: SIGTERM)
        await upstream.stop()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(", stream of 1 part, broken by the upstream, interaction 0"))
        // AND the cassette holds what arrived, marked broken
        let recorded = try recordedStream(in: workspace)
        #expect(recorded?.parts.map(\.content) == [.event(ServerSentEventFields(data: "one"))])
        #expect(recorded?.ending == .broken)
    }
}
