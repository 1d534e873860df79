import Foundation
import ServiceReplayShared
@testable import MockServer
import Testing
import ServiceReplayTestSupport

/// `recorder capture` in front of upstreams that take their time: a compressed stream is relayed as it comes,
/// a slow body as long as its bytes keep coming (a body of declared length reaching the client as it arrives),
/// and a silent upstream is the recorder's timeout, never recorded, as the help says.
@Suite struct CaptureUpstreamPacingTests {
    /// An upstream whose every answer is `reply`.
    struct FixedUpstream: HTTPHandler {
        let reply: HTTPReply
        func reply(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPReply { reply }
    }

    /// Starts `upstream` and `recorder capture` in front of it with `options`, writing `Recordings/paced.json`.
    private func capture(
        _ handler: some HTTPHandler, in workspace: Workspace,
        options: [String] = []
    ) async throws -> (HTTPServer, RunningRecorder, URL) {
        let upstream = HTTPServer(configuration: .init(), handler: handler)
        let upstreamURL = try await upstream.start()
        let capture = try RunningRecorder(
            ["capture", "--upstream", upstreamURL.absoluteString, "--out", "Recordings/paced.json"] + options,
            in: workspace.folder)
        return (upstream, capture, try await capture.address(after: "Listening on"))
    }

    @Test func gzipCodedStream_reachesTheClientEventByEvent_andIsRecordedAsEvents() async throws {
        // GIVEN an upstream streaming server-sent events through gzip, one flushed block per event
        let workspace = try Workspace()
        defer { workspace.remove() }
        let stream = LiveStream(head: HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream", "Content-Encoding": "gzip"]))
        let (upstream, capture, proxy) = try await capture(FixedUpstream(reply: .live(stream)), in: workspace)
        let connection = try PlainConnection(port: try #require(proxy.port))
        defer { connection.disconnect() }
        #expect(try await offThePool { try connection.get("/events") } == 200)
        // WHEN the upstream has sent the first event only
        stream.send(GzipEventStream.gzipPieces[0])
        // THEN the client has it, decoded, while the stream is open (a capture that collects coded bodies
        // whole sends nothing before the end, and this read gives up after 10 s)
        let first = try await offThePool { try connection.read(through: GzipEventStream.events[0]) }
        #expect(first.hasSuffix(GzipEventStream.events[0]))
        // WHEN the rest arrives, event by event, and the stream ends
        for (index, piece) in GzipEventStream.gzipPieces.dropFirst().enumerated() {
            stream.send(piece)
            if index < GzipEventStream.events.count - 1 {
                let event = GzipEventStream.events[index + 1]
                _ = try await offThePool { try connection.read(through: event) }
            }
        }
        stream.finish(.complete)
        // (the client sees the end once the recorder has it: only then is stopping sure to find it recorded)
        _ = try await offThePool { try connection.read(through: "0\r\n\r\n") }
        let run = try await capture.stop(with: SIGTERM)
        await upstream.stop()
        #expect(run.status == 0, "\(run.stderr)")
        // THEN the cassette holds each event, decoded, and no Content-Encoding
        let saved = try Cassette.load(from: workspace.url("Recordings/paced.json"))
        let response = try #require(saved.interactions.first?.response)
        guard case .stream(let recorded) = response.body.form else {
            Issue.record("expected a stream, found \(response.body)")
            return
        }
        #expect(recorded.ending == .complete)
        #expect(
            recorded.parts.map(\.content)
                == GzipEventStream.events.indices.map {
                    .event(ServerSentEventFields(event: "token", data: "{\"i\": \($0), \"text\": \"hello world number \($0) of the stream\"}"))
                })
        #expect(response.headers["Content-Encoding"] == nil)
    }

    @Test func slowBody_isRelayedAndRecordedWhole_aslongAsItsBytesKeepComing() async throws {
        // GIVEN an upstream that sends a 1,500-byte answer at 400 bytes a second (about 4 s in all, arriving
        // steadily), and a capture whose upstream may be silent for 2 s at most
        let workspace = try Workspace()
        defer { workspace.remove() }
        let body = Data((0..<1500).map { UInt8(ascii: "a") + UInt8($0 % 26) })
        let reply = HTTPReply.throttled(bytesPerSecond: 400, .response(status: 200, headers: ["Content-Type": "text/plain"], body: body))
        let (upstream, capture, proxy) = try await capture(FixedUpstream(reply: reply), in: workspace, options: ["--upstream-timeout", "2"])
        // WHEN a client asks through the capture
        let http = LoopbackHTTP()
        defer { http.close() }
        let seen = try await http.send("GET", "/slow", to: proxy)
        let run = try await capture.stop(with: SIGTERM)
        await upstream.stop()
        // THEN it gets the whole body, and the cassette holds those very bytes
        #expect(seen.status == 200)
        #expect(seen.body == body)
        #expect(run.status == 0, "\(run.stderr)")
        let saved = try Cassette.load(from: workspace.url("Recordings/paced.json"))
        #expect(saved.interactions.count == 1)
        #expect(saved.interactions.first?.response?.body.data == body)
    }

    @Test func lengthDelimitedBody_reachesTheClientAsItArrives_andIsRecordedByteForByte() async throws {
        // GIVEN an upstream that sends its head and the first 4 bytes of a 10-byte Content-Length body at once,
        // and the rest only once the test has seen those bytes reach the client; the upstream timeout is far
        // longer than the test, so that only the test paces the body
        let workspace = try Workspace()
        defer { workspace.remove() }
        let body = Data("0123456789".utf8)
        let upstream = try ScriptedUpstream()
        upstream.send(Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body.prefix(4))
        let capture = try RunningRecorder(
            ["capture", "--upstream", upstream.baseURL.absoluteString, "--out", "Recordings/paced.json", "--upstream-timeout", "600"],
            in: workspace.folder)
        let proxy = try await capture.address(after: "Listening on")
        let connection = try PlainConnection(port: try #require(proxy.port))
        defer { connection.disconnect() }
        // WHEN a client asks through the capture
        try connection.write("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        // THEN it gets the head, with the upstream's Content-Length, and the first bytes while the upstream still
        // holds the rest back (a capture that holds the body until its last byte sends nothing until the upstream
        // gives up, after a minute, and then a 502)
        let head = try await offThePool { try connection.read(through: "\r\n\r\n") }
        try #require(head.hasPrefix("HTTP/1.1 200 "), "\(head)")
        #expect(head.contains("\r\nContent-Length: 10\r\n"))
        #expect(!head.lowercased().contains("transfer-encoding"))
        #expect(try await offThePool { try connection.read(through: "0123") } == "0123")
        // WHEN the upstream sends the rest
        upstream.send(body.dropFirst(4))
        upstream.hangUp()
        // THEN the client gets it
        #expect(try await offThePool { try connection.read(through: "456789") } == "456789")
        // AND the cassette holds the whole body, byte for byte, under the upstream's Content-Length
        let run = try await capture.stop(with: SIGTERM)
        #expect(run.status == 0, "\(run.stderr)")
        let saved = try Cassette.load(from: workspace.url("Recordings/paced.json"))
        #expect(saved.interactions.count == 1)
        let recorded = try #require(saved.interactions.first?.response)
        let sameBytes = recorded.body.data == body
        #expect(sameBytes)
        #expect(recorded.headers["Content-Length"] == "10")
    }

    @Test func silentUpstream_gets504NamingTheTimeout_andNothingIsRecorded_asTheHelpSays() async throws {
        // GIVEN an upstream that never answers, and a capture that waits 1 s for it
        let workspace = try Workspace()
        defer { workspace.remove() }
        let (upstream, capture, proxy) = try await capture(FixedUpstream(reply: .stall), in: workspace, options: ["--upstream-timeout", "1"])
        // WHEN a client asks through the capture
        let http = LoopbackHTTP()
        defer { http.close() }
        let seen = try await http.send("GET", "/silent", to: proxy)
        // THEN it gets a 504 saying the upstream sent nothing for the recorder's timeout, and nothing was recorded
        #expect(seen.status == 504)
        let message = try #require(try CassetteJSON(parsing: seen.body)["message"]?.stringValue)
        #expect(message.hasPrefix("The upstream http://127.0.0.1:"))
        #expect(message.hasSuffix(" sent nothing for 1000 ms, the recorder's upstream timeout; nothing was recorded for this request."))
        let line = try await capture.line(containing: "GET /silent")
        #expect(line.hasSuffix(", not recorded: the upstream sent nothing in time (see --upstream-timeout)"))
        let run = try await capture.stop(with: SIGTERM)
        await upstream.stop()
        #expect(run.status == 0, "\(run.stderr)")
        let file = workspace.url("Recordings/paced.json")
        if FileManager.default.fileExists(atPath: file.path) {
            #expect(try Cassette.load(from: file).interactions.isEmpty)
        }
        // AND `recorder capture --help` says the same: that status, and not recorded
        let help = try await runRecorder(["capture", "--help"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(
            words.contains(
                "one that sends nothing for --upstream-timeout seconds (default 30, counted from its last byte) gets the client a \(seen.status) and is not recorded"
            ))
        #expect(words.contains("How long the upstream may send nothing before the client gets a \(seen.status) and nothing is recorded"))
    }

    @Test func requestTheServerRejects_getsALineInTheCaptureLog() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let (upstream, capture, proxy) = try await capture(FixedUpstream(reply: .stall), in: workspace)
        let connection = try PlainConnection(port: try #require(proxy.port))
        defer { connection.disconnect() }
        try connection.write("NOT HTTP AT ALL\r\n\r\n")
        let answer = try await offThePool { try connection.readToEnd() }
        #expect(answer.hasPrefix("HTTP/1.1 400 "))
        let line = try await capture.line(containing: "rejected")
        #expect(line.hasPrefix("(request not read) → 400 rejected: "))
        _ = try await capture.stop(with: SIGTERM)
        await upstream.stop()
    }

    @Test(arguments: ["0", "soon", "86401"])
    func upstreamTimeoutThatIsNotAWholeNumberOfSeconds_isAUsageError(value: String) async throws {
        let run = try await runRecorder(["capture", "--upstream", "http://127.0.0.1:9", "--upstream-timeout", value])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--upstream-timeout"))
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }
}
