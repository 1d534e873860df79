#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation
import ServiceReplayShared
import MockServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `mockserver-bench capture-stream --recorder PATH --out FILE [--events N] [--first M]`: the resident memory
/// of `recorder capture` while it proxies one long server-sent event stream. An upstream in this process
/// streams N events (default 100,000, each a ~120-byte chat delta) in batches of 1,000, each batch sent once
/// a raw socket client reading through the capture has received the one before, so that nothing piles up in
/// flight. The recorder's resident memory is read from /proc after M events (default 10,000: the reference)
/// and after all N, with the stream still open. Then the stream ends, the recorder stops (SIGINT) and the
/// cassette is checked to hold N parts. The reference for the rate, measured first in the same run, is the
/// same stream read straight from the upstream. Prints `rss_first KB`, `rss_last KB`, `ratio LAST/FIRST`,
/// `rate EVENTS/S` (through capture) and `direct EVENTS/S`.
enum CaptureStreamCommand {
    static let batch = 1_000

    static func run(_ arguments: [String]) async throws {
        var events = 100_000
        var first = 10_000
        var recorder: String?
        var out: String?
        var index = 0
        while index + 1 < arguments.count {
            let value = arguments[index + 1]
            switch arguments[index] {
            case "--events": events = try count(value)
            case "--first": first = try count(value)
            case "--recorder": recorder = value
            case "--out": out = value
            default: throw BenchmarkError("Unknown argument '\(arguments[index])' for capture-stream.")
            }
            index += 2
        }
        guard index == arguments.count, let recorder, let out, first % batch == 0, events % batch == 0, first < events else {
            throw BenchmarkError("capture-stream takes --recorder PATH --out FILE [--events N] [--first M], N and M multiples of \(batch), M < N.")
        }

        let streams = (0..<2).map { _ in LiveStream(head: HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"])) }
        let upstream = HTTPServer(configuration: .init(), handler: StreamingUpstream(streams: streams))
        let upstreamURL = try await upstream.start()
        let clock = ContinuousClock()

        // The reference: the same stream read straight from the upstream.
        guard let upstreamPort = upstreamURL.port else { throw BenchmarkError("the upstream has no port") }
        let direct = try EventReader(port: upstreamPort)
        try direct.write(request: "GET /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let directTime = try clock.measure {
            try feed(streams[0], to: direct, events: events) { _ in }
        }

        let capture = try RecorderProcess(recorder, ["capture", "--upstream", upstreamURL.absoluteString, "--out", out])
        defer { capture.kill() }
        let client = try EventReader(port: try capture.port())
        try client.write(request: "GET /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\n\r\n")
        var rssFirst = 0
        let captureTime = try clock.measure {
            try feed(streams[1], to: client, events: events) { received in
                if received == first { rssFirst = try residentKilobytes(of: capture.pid) }
            }
        }
        let rssLast = try residentKilobytes(of: capture.pid)
        streams[1].finish(.complete)
        try client.readToEndOfBody()
        try capture.interrupt()
        await upstream.stop()

        let cassette = try Cassette.load(from: URL(fileURLWithPath: out))
        guard case .stream(let recorded)? = cassette.interactions.first?.response?.body.form, recorded.parts.count == events,
            recorded.ending == .complete
        else {
            throw BenchmarkError("the cassette does not hold the \(events)-event stream")
        }
        let captureRate = Double(events) / seconds(captureTime)
        let directRate = Double(events) / seconds(directTime)
        print("rss_first \(rssFirst) KB after \(first) events")
        print("rss_last \(rssLast) KB after \(events) events")
        print("ratio \(String(format: "%.2f", Double(rssLast) / Double(max(1, rssFirst))))")
        print("rate \(String(format: "%.0f", captureRate)) events/s through capture (proxied and logged)")
        print("direct \(String(format: "%.0f", directRate)) events/s straight from the upstream")
    }

    /// Sends `events` events on `stream` in batches, each once `reader` has received the one before; calls
    /// `received` with the count after each batch.
    private static func feed(_ stream: LiveStream, to reader: EventReader, events: Int, received: (Int) throws -> Void) throws {
        for sent in stride(from: 0, to: events, by: batch) {
            for number in sent..<(sent + batch) {
                stream.send(
                    Data(
                        (#"data: {"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"token \#(number)"}}]}"#
                            + "\n\n").utf8))
            }
            try reader.readEvents(until: sent + batch)
            try received(sent + batch)
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    private static func count(_ text: String) throws -> Int {
        guard let value = Int(text), value >= 1 else { throw BenchmarkError("'\(text)' is not a whole number of at least 1.") }
        return value
    }

    /// VmRSS of process `pid`, in kilobytes (Linux only).
    static func residentKilobytes(of pid: Int32) throws -> Int {
        // portability-ok: where /proc is missing this throws the sentence below.
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else {
            throw BenchmarkError("cannot read the resident memory of process \(pid) from /proc")
        }
        return kilobytes
    }

    /// An upstream that answers its Nth request with the Nth of `streams`.
    final class StreamingUpstream: HTTPHandler {
        private let streams: Lock<[LiveStream]>
        init(streams: [LiveStream]) { self.streams = Lock(streams) }
        func reply(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPReply {
            guard let stream = streams.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return .response(status: 404) }
            return .live(stream)
        }
    }
}

/// `recorder capture` as a child process, its standard output read for the address it listens on.
final class RecorderProcess {
    private let process: Process
    private let output: Pipe

    init(_ path: String, _ arguments: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        output = Pipe()
        process.standardOutput = output
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// The port from the `Listening on http://127.0.0.1:PORT` line (waits for it, up to the end of output).
    func port() throws -> Int {
        var text = ""
        let handle = output.fileHandleForReading
        while true {
            let chunk = handle.availableData
            guard !chunk.isEmpty else { throw BenchmarkError("recorder capture ended before listening: \(text)") }
            text += String(decoding: chunk, as: UTF8.self)
            if let range = text.range(of: "Listening on http://127.0.0.1:"),
                let port = Int(text[range.upperBound...].prefix { $0.isNumber }), text[range.upperBound...].contains(";")
            {
                return port
            }
        }
    }

    /// Sends SIGINT and waits for the recorder to save and exit (bounded at 120 s).
    func interrupt() throws {
        process.interrupt()
        let handle = output.fileHandleForReading
        let deadline = ContinuousClock.now + .seconds(120)
        while process.isRunning, ContinuousClock.now < deadline {
            _ = handle.availableData
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkError("recorder capture exited with status \(process.terminationStatus)") }
    }

    func kill() {
        if process.isRunning { process.terminate() }
    }
}

/// A blocking socket client that counts the server-sent events of one chunked response.
final class EventReader {
    private let fd: Int32
    private var events = 0
    private var previous: UInt8 = 0
    private var tail: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    init(port: Int) throws {
        fd = try connectedLoopbackSocket(port: port)
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func write(request text: String) throws {
        let bytes = Array(text.utf8)
        guard send(fd, bytes, bytes.count, 0) == bytes.count else { throw BenchmarkError("send() failed") }
    }

    /// Reads until `count` events (each ended by a blank line, LF LF, which chunk framing never holds) have
    /// arrived in all; throws when the connection ends or stalls for 60 s first.
    func readEvents(until count: Int) throws {
        while events < count {
            let received = recv(fd, &buffer, buffer.count, 0)
            guard received > 0 else { throw BenchmarkError("the stream ended or stalled after \(events) events") }
            for byte in buffer[0..<received] {
                if byte == 0x0A, previous == 0x0A { events += 1 }
                previous = byte
                tail.append(byte)
            }
            if tail.count > 16 { tail.removeFirst(tail.count - 16) }
        }
    }

    /// Reads until the last chunk of the body (`0`, CRLF, CRLF).
    func readToEndOfBody() throws {
        let end = Array("\r\n0\r\n\r\n".utf8)
        while !(tail.count >= end.count && Array(tail.suffix(end.count)) == end) {
            let received = recv(fd, &buffer, buffer.count, 0)
            guard received > 0 else { throw BenchmarkError("the stream ended without its last chunk") }
            tail += buffer[0..<received]
            if tail.count > 16 { tail.removeFirst(tail.count - 16) }
        }
    }

    deinit {
        close(fd)
    }
}
#endif
