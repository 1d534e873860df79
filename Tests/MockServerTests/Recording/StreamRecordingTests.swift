import Foundation
@testable import MockServer
import Testing
import ServiceReplayTestSupport
import ServiceReplayShared

/// Record mode in front of an upstream that streams: relayed as it arrives, logged as it arrives, and
/// recorded however the stream ends.
@Suite(.timeLimit(.minutes(1))) struct StreamRecordingTests {
    static let request = "GET /feed HTTP/1.1\r\nHost: localhost\r\n\r\n"

    /// An upstream whose every answer is `stream`, fed by the test.
    static func streaming(_ stream: LiveStream) -> @Sendable (HTTPRequest) -> HTTPReply {
        { _ in .live(stream) }
    }

    /// Records `stream` through a proxy in front of an upstream answering with it, a raw client reading the
    /// whole answer: what the client got and how its connection ended, the cassette, and the exchanges reported.
    static func recordThroughProxy(
        _ stream: LiveStream
    ) async throws
        -> (text: String, ending: RawHTTPClient.Ending, cassette: Cassette, reports: [ForwardedExchange])
    {
        let reports = ExchangeReports()
        let (text, ending, cassette) = try await withUpstream(respond: streaming(stream)) { upstream, _ in
            try await withRecordingServer(upstream: upstream, onExchange: reports.append) { server, base in
                let client = try RawHTTPClient(base)
                defer { client.close() }
                try client.send(request)
                let (bytes, ending) = await client.readToEnd()
                return (String(decoding: bytes, as: UTF8.self), ending, try #require(server.recordedCassette))
            }
        }
        return (text, ending, cassette, reports.all)
    }

    static func recordedStream(_ cassette: Cassette) throws -> RecordedStream {
        let body = try #require(cassette.interactions.first?.response?.body)
        guard case .stream(let stream) = body.form else {
            Issue.record("expected a stream body, found \(body)")
            return RecordedStream([])
        }
        return stream
    }

    @Test func chunkedStream_reachesTheClientChunkByChunk_isRecordedAsTimedChunks_andReplaysTheSameBytes() async throws {
        // GIVEN an upstream answering with a chunked NDJSON stream the test feeds, and a recording proxy
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("feed.json")
        let stream = LiveStream(head: HTTPResponse(status: 200, headers: ["Content-Type": "application/x-ndjson"]))
        var head = ""
        try await withUpstream(respond: Self.streaming(stream)) { upstream, _ in
            try await withRecordingServer(upstream: upstream, file: file) { _, base in
                let client = try RawHTTPClient(base)
                defer { client.close() }
                try client.send(Self.request)
                // WHEN the upstream has sent only its first line
                stream.send(Data("{\"n\":1}\n".utf8))
                // THEN the client has it, chunked, while the upstream's stream is still open
                head = String(decoding: try await client.read(through: "{\"n\":1}\n\r\n"), as: UTF8.self)
                #expect(head.lowercased().contains("transfer-encoding: chunked"))
                #expect(!head.lowercased().contains("content-length"))
                // WHEN the upstream sends the second line and ends
                stream.send(Data("{\"n\":2}\n".utf8))
                stream.finish(.complete)
                // THEN the client gets it and the body's end
                let rest = String(decoding: try await client.read(through: "0\r\n\r\n"), as: UTF8.self)
                #expect(rest == "8\r\n{\"n\":2}\n\r\n0\r\n\r\n")
            }
        }
        // AND the cassette holds one timed text part per chunk, complete
        let cassette = try Cassette.load(from: file)
        let recorded = try Self.recordedStream(cassette)
        #expect(recorded.parts.map(\.content) == [.text("{\"n\":1}\n"), .text("{\"n\":2}\n")])
        #expect(recorded.parts[0].offsetMs <= recorded.parts[1].offsetMs)
        #expect(recorded.ending == .complete)
        #expect(cassette.interactions.first?.response?.headers["Content-Type"] == "application/x-ndjson")
        #expect(!FileManager.default.fileExists(atPath: CaptureLog.url(for: file).path))
        // AND replaying it sends the same bytes, chunked
        try await withMockServer(cassettes: [cassette], configuration: .init(faults: .none, strict: true, streamTiming: .instant)) { server in
            let replayed = try await rawExchange(server.baseURL!, "GET /feed HTTP/1.1\r\nHost: localhost")
            #expect(replayed.headers["Transfer-Encoding"] == "chunked")
            #expect(replayed.bodyText == "{\"n\":1}\n{\"n\":2}\n")
        }
    }

    @Test func chunkedJSONDocument_isStillRecordedWhole() async throws {
        // GIVEN an upstream whose JSON answer comes chunked
        let stream = LiveStream(head: HTTPResponse(status: 200, headers: ["Content-Type": "application/json"]))
        try await withUpstream(respond: Self.streaming(stream)) { upstream, _ in
            try await withRecordingServer(upstream: upstream) { server, base in
                stream.send(Data("{\"a\":".utf8))
                stream.send(Data("1}".utf8))
                stream.finish(.complete)
                // WHEN the client asks
                let response = try await rawExchange(base, "GET /doc HTTP/1.1\r\nHost: localhost")
                // THEN it gets the document, and the cassette holds it inline, as any JSON body
                #expect(response.bodyText == "{\"a\":1}")
                #expect(server.recordedCassette?.interactions.first?.response?.body == .json(try CassetteJSON(parsing: Data("{\"a\":1}".utf8))))
            }
        }
    }

    @Test func openStream_isInTheLogAsItArrives_andStoppingCutsIt_recordingItAsUnfinished() async throws {
        // GIVEN a recording proxy relaying a server-sent event stream that never ends
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("events.json")
        let stream = LiveStream(head: HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"]))
        try await withUpstream(respond: Self.streaming(stream)) { upstream, _ in
            var options = RecordingOptions(upstream: try Upstream(upstream), file: file)
            let reports = ExchangeReports()
            options.onExchange = reports.append
            let server = try CassetteServer(cassettes: [], configuration: .init(faults: .none, mode: .record, recording: options))
            let base = try await server.start()
            let client = try RawHTTPClient(base)
            defer { client.close() }
            try client.send(Self.request)
            stream.send(Data("id: 1\ndata: one\n\n".utf8))
            _ = try await client.read(through: "data: one\n\n")
            // WHEN a reader loads the cassette while the stream is open (the client has had the first event)
            let during = try Cassette.load(from: file)
            // THEN the event is there, from the capture log, in a stream marked unfinished
            let open = try Self.recordedStream(during)
            #expect(open.parts.map(\.content) == [.event(ServerSentEventFields(id: "1", data: "one"))])
            #expect(open.ending == .unfinished)
            // WHEN a second event passes and the server stops with the stream still open
            stream.send(Data("id: 2\ndata: two\n\n".utf8))
            _ = try await client.read(through: "data: two\n\n")
            await server.stop()
            // THEN the client's stream is cut, not ended
            let (bytes, ending) = await client.readToEnd()
            #expect(ending == .closed)
            #expect(!String(decoding: bytes, as: UTF8.self).contains("0\r\n\r\n"))
            // AND the cassette file holds both events, marked unfinished, and no log is left
            let saved = try Cassette.load(from: file)
            let recorded = try Self.recordedStream(saved)
            #expect(
                recorded.parts.map(\.content) == [
                    .event(ServerSentEventFields(id: "1", data: "one")),
                    .event(ServerSentEventFields(id: "2", data: "two")),
                ])
            #expect(recorded.ending == .unfinished)
            #expect(saved.interactions.count == 1)
            #expect(!FileManager.default.fileExists(atPath: CaptureLog.url(for: file).path))
            #expect(reports.all.map { $0.brokenStream == nil } == [true])
            stream.finish(.complete)
        }
    }

    @Test func brokenUpstreamStream_isRecordedAsBroken_reported_andReplayedBroken() async throws {
        // GIVEN an upstream that sends one event and then closes without ending its chunked body
        let stream = LiveStream(head: HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"]))
        stream.send(Data("data: one\n\n".utf8))
        stream.finish(.cut)
        // WHEN a client asks through the proxy
        let (text, ending, cassette, reports) = try await Self.recordThroughProxy(stream)
        // THEN it gets the event, then the connection closes without the body's end
        #expect(ending == .closed)
        #expect(text.hasSuffix("b\r\ndata: one\n\n\r\n"))
        // AND the stream is recorded with what arrived, marked broken, and reported as broken
        let recorded = try Self.recordedStream(cassette)
        #expect(recorded.parts.map(\.content) == [.event(ServerSentEventFields(data: "one"))])
        #expect(recorded.ending == .broken)
        #expect(reports.count == 1)
        #expect(reports.first?.brokenStream != nil)
        // AND replay breaks it at the same point
        try await withMockServer(cassettes: [cassette], configuration: .init(faults: .none, strict: true, streamTiming: .instant)) { server in
            let client = try RawHTTPClient(server.baseURL!)
            defer { client.close() }
            try client.send(Self.request)
            let (bytes, ending) = await client.readToEnd()
            #expect(ending == .closed)
            #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("b\r\ndata: one\n\n\r\n"))
        }
    }

    @Test func streamSilentLongerThanTheTimeout_isCutByTheRecorder_andRecordedAsUnfinished() async throws {
        // GIVEN an upstream that sends one event and then nothing, and a proxy with a short upstream timeout (3 s:
        // it also bounds the wait for the head, which under ThreadSanitizer once took longer than 1 s)
        let stream = LiveStream(head: HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"]))
        stream.send(Data("data: one\n\n".utf8))
        let reports = ExchangeReports()
        let cassette = try await withUpstream(respond: Self.streaming(stream)) { upstream, _ in
            try await withRecordingServer(upstream: upstream, timeout: .seconds(3), onExchange: reports.append) { server, base in
                // WHEN a client asks through the proxy
                let client = try RawHTTPClient(base)
                defer { client.close() }
                try client.send(Self.request)
                let (bytes, ending) = await client.readToEnd()
                // THEN it gets the event, then the stream is cut
                #expect(ending == .closed)
                #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("b\r\ndata: one\n\n\r\n"))
                return try #require(server.recordedCassette)
            }
        }
        stream.finish(.complete)
        // AND the stream is recorded as far as it came, unfinished: the recorder cut it, the upstream did not
        // break it, so replay must not break it either
        let recorded = try Self.recordedStream(cassette)
        #expect(recorded.parts.map(\.content) == [.event(ServerSentEventFields(data: "one"))])
        #expect(recorded.ending == .unfinished)
        #expect(reports.all.count == 1)
        #expect(reports.all.first?.brokenStream == nil)
    }

    @Test func gzipStreamEndingBeforeItsCodingDoes_isRecordedAsBrokenByTheUpstream() async throws {
        // GIVEN an upstream whose gzip-coded stream sends three events, then ends its chunked body without
        // the rest of the gzip data
        let stream = LiveStream(head: HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream", "Content-Encoding": "gzip"]))
        for piece in GzipEventStream.gzipPieces.prefix(3) { stream.send(piece) }
        stream.finish(.complete)
        // WHEN a client asks through the proxy
        let (text, ending, cassette, reports) = try await Self.recordThroughProxy(stream)
        // THEN it gets the three events, decoded, and then the stream is cut, not ended
        #expect(ending == .closed)
        #expect(GzipEventStream.events.prefix(3).allSatisfy(text.contains))
        #expect(!text.hasSuffix("0\r\n\r\n"))
        // AND the cassette holds them in a stream the upstream broke, saying why
        let recorded = try Self.recordedStream(cassette)
        #expect(recorded.parts.count == 3)
        #expect(recorded.ending == .broken)
        #expect(reports.first?.brokenStream?.message == "The upstream's gzip body is truncated.")
    }

    @Test func clientLeavingMidStream_cancelsTheUpstream_andRecordsTheStreamAsUnfinished() async throws {
        // GIVEN a recording proxy relaying a stream that never ends, whose client has had one event
        let stream = LiveStream(head: HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"]))
        let (reported, report) = AsyncStream.makeStream(of: ForwardedExchange.self)
        try await withUpstream(respond: Self.streaming(stream)) { upstream, _ in
            try await withRecordingServer(upstream: upstream, onExchange: { report.yield($0) }) { server, base in
                let client = try RawHTTPClient(base)
                try client.send(Self.request)
                stream.send(Data("data: one\n\n".utf8))
                _ = try await client.read(through: "data: one\n\n")
                // WHEN the client goes away
                client.close()
                // THEN the exchange ends without the upstream ending its stream, which is recorded as unfinished
                var exchanges = reported.makeAsyncIterator()
                let exchange = try #require(await exchanges.next())
                guard case .stream(let recorded)? = exchange.interaction.response?.body.form else {
                    Issue.record("expected a stream, found \(exchange.interaction)")
                    return
                }
                #expect(recorded.parts.map(\.content) == [.event(ServerSentEventFields(data: "one"))])
                #expect(recorded.ending == .unfinished)
                #expect(exchange.brokenStream == nil)
                #expect(server.recordedCassette?.interactions.count == 1)
            }
        }
        stream.finish(.complete)
    }

    /// Streams handed to an upstream's requests in order, one per request.
    final class StreamQueue: Sendable {
        private let streams = Lock<[LiveStream]>([])

        func push(_ stream: LiveStream) { streams.withLock { $0.append(stream) } }

        @Sendable func respond(_ request: HTTPRequest) -> HTTPReply {
            streams.withLock { $0.isEmpty ? .response(status: 500) : .live($0.removeFirst()) }
        }
    }

    /// Relays `rounds` streams whose client closes right after reading the last event, the upstream ending
    /// each `endDelay` after that close (or together with the last event when `nil`); returns each ending.
    static func closeRightAfterTheLastEvent(rounds: Int, endDelay: Duration?) async throws -> [RecordedStream] {
        let queue = StreamQueue()
        let (reported, report) = AsyncStream.makeStream(of: ForwardedExchange.self)
        var recorded: [RecordedStream] = []
        try await withUpstream(respond: queue.respond) { upstream, _ in
            // A grace far longer than the upstream's delay, so that no machine load makes the end miss it.
            try await withRecordingServer(upstream: upstream, clientGoneGrace: .seconds(60), onExchange: { report.yield($0) }) { _, base in
                var exchanges = reported.makeAsyncIterator()
                for _ in 0..<rounds {
                    let stream = LiveStream(head: HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"]))
                    queue.push(stream)
                    let client = try RawHTTPClient(base)
                    try client.send(Self.request)
                    stream.send(Data("data: one\n\n".utf8))
                    stream.send(Data("data: [DONE]\n\n".utf8))
                    if endDelay == nil { stream.finish(.complete) }
                    _ = try await client.read(through: "data: [DONE]\n\n")
                    client.close()
                    if let endDelay {
                        try await Task.sleep(for: endDelay)
                        stream.finish(.complete)
                    }
                    let exchange = try #require(await exchanges.next())
                    guard case .stream(let stream)? = exchange.interaction.response?.body.form else {
                        Issue.record("expected a stream, found \(exchange.interaction)")
                        continue
                    }
                    recorded.append(stream)
                }
            }
        }
        return recorded
    }

    @Test func clientClosingRightAfterTheLastEvent_withTheEndOnItsWay_isRecordedAsEnded_everyTime() async throws {
        // GIVEN streams whose upstream ends them with the last event, and a client that closes as soon as it read it
        // WHEN this happens 20 times in a row
        let recorded = try await Self.closeRightAfterTheLastEvent(rounds: 20, endDelay: nil)
        // THEN every stream is recorded whole and ended, whatever the client's timing
        #expect(recorded.count == 20)
        #expect(recorded.map(\.ending) == Array(repeating: .complete, count: 20))
        #expect(
            recorded.allSatisfy {
                $0.parts.map(\.content) == [
                    .event(ServerSentEventFields(data: "one")),
                    .event(ServerSentEventFields(data: "[DONE]")),
                ]
            })
    }

    @Test func clientClosingBeforeTheUpstreamsEnd_thatComesWithinTheGrace_isRecordedAsEnded_everyTime() async throws {
        // GIVEN streams whose upstream ends them 5 ms after the client closed (within the grace; 300 ms by default)
        #expect(RecordingOptions(upstream: try Upstream("http://127.0.0.1:9")).clientGoneGrace == .milliseconds(300))
        // WHEN this happens 20 times in a row
        let recorded = try await Self.closeRightAfterTheLastEvent(rounds: 20, endDelay: .milliseconds(5))
        // THEN every stream is recorded as ended: the label follows the upstream, not the client
        #expect(recorded.map(\.ending) == Array(repeating: .complete, count: 20))
        #expect(recorded.allSatisfy { $0.parts.count == 2 })
    }

    /// Records one answer from an upstream whose `stream` (of `contentType`) the test feeds through `feed`,
    /// which gets the client after the request went out; returns the recorded body and what the client read.
    static func recordChunked(
        _ contentType: String, feed: @escaping @Sendable (LiveStream, RawHTTPClient) async throws -> Void
    ) async throws -> (RecordedBody, String) {
        let stream = LiveStream(head: HTTPResponse(status: 200, headers: ["Content-Type": contentType]))
        return try await withUpstream(respond: Self.streaming(stream)) { upstream, _ in
            try await withRecordingServer(upstream: upstream) { server, base in
                let client = try RawHTTPClient(base)
                defer { client.close() }
                try client.send(Self.request)
                try await feed(stream, client)
                let text = String(decoding: try await client.read(through: "0\r\n\r\n"), as: UTF8.self)
                let body = try #require(server.recordedCassette?.interactions.first?.response?.body)
                return (body, text)
            }
        }
    }

    @Test func chunkedPageArrivingAtOnce_isRecordedAsAPlainBody_underItsOwnType() async throws {
        // GIVEN an upstream that chunks an HTML page, all its pieces written together, as datasette does
        let (body, wire) = try await Self.recordChunked("text/html; charset=utf-8") { stream, _ in
            stream.send(Data("<html><body>".utf8))
            stream.send(Data("<p>hi</p></body></html>".utf8))
            stream.finish(.complete)
        }
        // THEN the client got it chunked as the upstream sent it
        #expect(wire.hasSuffix("</html>\r\n0\r\n\r\n"))
        // AND the cassette holds it as plain text, not a one-moment stream
        #expect(body == .text("<html><body><p>hi</p></body></html>"))
    }

    @Test func chunkedPageWhosePiecesArrivedApart_staysAStream() async throws {
        // GIVEN an upstream whose second piece of a text page comes 30 ms after the client had the first
        let (body, _) = try await Self.recordChunked("text/plain") { stream, client in
            stream.send(Data("first\n".utf8))
            _ = try await client.read(through: "first\n\r\n")
            try await Task.sleep(for: .milliseconds(30))  // the gap under test, well over RecordedStream.atOnceMs
            stream.send(Data("second\n".utf8))
            stream.finish(.complete)
        }
        // THEN it is recorded as a stream of two timed parts
        guard case .stream(let recorded) = body.form else {
            Issue.record("expected a stream, found \(body)")
            return
        }
        #expect(recorded.parts.map(\.content) == [.text("first\n"), .text("second\n")])
        #expect(recorded.parts[1].offsetMs - recorded.parts[0].offsetMs > RecordedStream.atOnceMs)
    }

    @Test(arguments: ["application/x-ndjson", "text/event-stream"])
    func streamingTypeArrivingAtOnce_staysAStream(contentType: String) async throws {
        // GIVEN a streaming type whose pieces all arrive together
        let (body, _) = try await Self.recordChunked(contentType) { stream, _ in
            stream.send(Data("data: 1\n\n".utf8))
            stream.send(Data("data: 2\n\n".utf8))
            stream.finish(.complete)
        }
        // THEN it is still recorded as a stream: its type says it is one
        guard case .stream(let recorded) = body.form else {
            Issue.record("expected a stream, found \(body)")
            return
        }
        #expect(recorded.data == Data("data: 1\n\ndata: 2\n\n".utf8))
    }

    @Test func atOnceRule_appliesOnlyToCompleteStreams_ofNonStreamingTypes_withinTheLimit() {
        let parts = [RecordedStream.Part(offsetMs: 5, .text("a")), RecordedStream.Part(offsetMs: 5 + RecordedStream.atOnceMs, .text("b"))]
        #expect(RecordedStream(parts).recordedBody(contentType: "text/csv") == .text("ab"))
        #expect(RecordedStream(parts).recordedBody(contentType: nil) == .binary(Data("ab".utf8)))
        #expect(RecordedStream(parts, ending: .broken).recordedBody(contentType: "text/csv") == .stream(RecordedStream(parts, ending: .broken)))
        #expect(RecordedStream(parts).recordedBody(contentType: "application/x-ndjson") == .stream(RecordedStream(parts)))
        let apart = [parts[0], RecordedStream.Part(offsetMs: 6 + RecordedStream.atOnceMs, .text("b"))]
        #expect(RecordedStream(apart).recordedBody(contentType: "text/csv") == .stream(RecordedStream(apart)))
    }
}
