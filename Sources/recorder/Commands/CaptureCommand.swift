import Foundation
import MockServer
import ServiceReplayShared

/// `recorder capture --upstream URL [--port N] [--out FILE] [--mode record|new-episodes] [--redact-header NAME]... [--redact-field NAME]... [--upstream-timeout SECONDS] [--allow-host NAME]...`.
enum CaptureCommand: Command {
    static let help = CommandHelp(
        name: "capture",
        summary: "record a real API into a cassette through a reverse proxy",
        usage:
            "recorder capture --upstream URL [--port N] [--out FILE] [--mode record|new-episodes] [--redact-header NAME]... [--redact-field NAME]... [--upstream-timeout SECONDS] [--allow-host NAME]...",
        description: """
            Listens on 127.0.0.1 and forwards every request to the upstream (method, path, query,
            headers with Host rewritten, body), gives the client the upstream's answer, and records the
            exchange. It prints the address, then one line per exchange as it happens (method, target,
            status, milliseconds, body bytes, interaction index). Each exchange is appended to a capture
            log beside the cassette (FILE.log) before the client gets the end of its answer, so even a
            kill loses nothing that was answered: every reader applies the log. The cassette itself is
            rewritten atomically every few seconds and at stop, which removes the log; a failure to write
            it gives one error line and exit status 1. Redirects are passed back, not followed;
            compressed bodies are stored decoded; an upstream that cannot be reached (refused, unknown
            host, no TLS agreement, or the connection lost before any byte of an answer) gets the client
            a 502 and is not recorded, the line saying so, as a fixture of a dead upstream would replay
            it for good; one that sends nothing for --upstream-timeout seconds (default 30, counted from
            its last byte) gets the client a 504 and is not recorded either, as that limit is the
            recorder's, not the upstream's answer; one that breaks its answer gets the client a 502 and
            is recorded as that failure, which `recorder replay` reproduces. A body whose length the
            upstream declares (Content-Length, not compressed) reaches the client as it arrives, its
            last bytes once the exchange is logged, and is recorded whole; once the head of such an
            answer has reached the client, a break or a silence cuts it short instead of a 502 or 504. A
            streamed answer (text/event-stream, or a chunked body other than JSON) reaches the client as
            it arrives and goes to the log part by part, each with its time offset; a stream the
            upstream breaks is recorded as broken (with a warning on standard error), one still open at
            stop as unfinished. Credentials (Authorization, Cookie, Set-Cookie and API-key headers;
            token, secret and password fields, values shaped like credentials; not identifiers and cursors
            such as UploadId) are redacted in the cassette, never on the wire, by the same rules as
            `recorder redact` and `lint`, with the project's .servicereplay.json in the cassette's Recordings
            folder (a malformed one stops the command with one sentence and status 1). Ctrl-C
            or SIGTERM cuts open streams, lets the other exchanges in flight finish, prints a summary
            and exits 0. An existing cassette is never replaced: --mode new-episodes replays what it
            holds and appends only the requests it does not match. Only requests addressed to a loopback name
            are forwarded (Host 127.0.0.1, localhost or [::1], any port; others get 421 and reach no upstream),
            and none a browser marks as sent by a page of another site (403), so that no web page can send
            requests upstream through it; --allow-host lets a name through on purpose.
            """,
        arguments: [],
        options: [
            .init(spelling: "--upstream URL", text: "The http or https base URL to forward to (required)."),
            .init(spelling: "--port N", text: "The port to listen on (default: 0, any free port)."),
            .init(spelling: "--out FILE", text: "The cassette to write (default: Recordings/HOST.json, HOST the upstream's)."),
            .init(spelling: "--mode MODE", text: "record: a new cassette (default); new-episodes: append to FILE."),
            .init(spelling: "--redact-header NAME", text: "Also redact this header (repeatable)."),
            .init(spelling: "--redact-field NAME", text: "Also redact this query, form or JSON field (repeatable)."),
            .init(
                spelling: "--upstream-timeout SECONDS",
                text: "How long the upstream may send nothing before the client gets a 504 and nothing is recorded (default 30)."),
            .init(
                spelling: "--allow-host NAME",
                text: "Also answer requests addressed to NAME, such as a Docker service or 10.0.2.2 (repeatable; * allows any name)."),
        ],
        examples: [
            "recorder capture --upstream https://api.github.com --out Recordings/github/users.json",
            "curl -i 'http://127.0.0.1:PORT/users?since=0&per_page=3'",
        ]
    )

    static func run(_ arguments: [String], console: Console) async throws(RecorderError) -> Int32 {
        let parsed = try Arguments(
            arguments, options: ["upstream", "port", "out", "mode", "redact-header", "redact-field", "upstream-timeout", "allow-host"], flags: [],
            command: "capture")
        try parsed.expectPositionals(0...0, what: "no arguments", command: "capture")
        let upstream = try self.upstream(parsed.required("upstream"))
        let port = try parsed.integer("port", in: 0...65535) ?? 0
        let mode = try self.mode(parsed.single("mode"))
        let out = try parsed.single("out") ?? defaultOut(for: upstream)
        var rules = CassetteRules(parsed)
        let redaction = try rules.rules(for: URL(fileURLWithPath: out, isDirectory: false)).rules
        let timeout = try parsed.integer("upstream-timeout", in: 1...86_400) ?? 30
        // A killed capture leaves its log, which holds the cassette as much as the file does (the file, when
        // there is one yet, may be behind it): the words then say it was interrupted, whether or not the file
        // was written before the kill.
        let interrupted = FileManager.default.fileExists(atPath: out + ".log")
        let existed = interrupted || FileManager.default.fileExists(atPath: out)

        let tally = Tally()
        var options = RecordingOptions(
            upstream: upstream, file: URL(fileURLWithPath: out, isDirectory: false), redaction: redaction,
            timeout: .seconds(timeout))
        options.onExchange = { exchange in
            if exchange.index != nil { tally.countRecorded() }
            console.print(CaptureLine.exchange(exchange))
            if let reason = exchange.brokenStream {
                console.error(CaptureLine.brokenStream(exchange, reason: reason))
            }
        }
        var configuration = CassetteServer.Configuration(faults: .none, mode: mode, recording: options)
        configuration.server = HTTPServer.Configuration(port: UInt16(port))
        configuration.allowedHosts = parsed.all("allow-host")
        configuration.onDescriptorsExhausted = ExhaustionWarning.printer(to: console)
        configuration.onRejection = { rejected in console.print(rejected.description) }
        configuration.onRequest = { entry in
            guard entry.outcome.kind == .matched else { return }
            tally.countReplayed()
            console.print(CaptureLine.replayed(entry, redacting: redaction))
        }
        let server: CassetteServer
        do {
            server = try CassetteServer(cassettes: [], configuration: configuration)
        } catch {
            throw error.code == .invalidConfiguration ? .usage(error.description) : .failure(error.description)
        }
        // Caught from before the address is printed, so that a signal sent as soon as it appears stops cleanly.
        let shutdown = ShutdownSignal.Catcher()
        let url = try await start(server, port: port, out: out, interrupted: interrupted)
        let existing = existed ? server.recordedCassette?.interactions.count : nil
        console.print(CaptureLine.opening(upstream: upstream, out: out, existing: existing, fromLog: interrupted))
        console.print("Listening on \(url.absoluteString); press Ctrl-C to stop.")

        let signal = await shutdown.wait()
        await server.stop()
        console.print(
            CaptureLine.summary(
                signal: signal, recorded: tally.recorded, replayed: mode == .replayOrRecord ? tally.replayed : nil,
                out: out, cassette: server.recordedCassette, existed: existed))
        do {
            try server.saveRecording()
        } catch {
            throw .failure(error.description)
        }
        return 0
    }

    /// The cassette file when `--out` is not given: `Recordings/HOST.json`, with `-PORT` when the upstream
    /// names a port (`Recordings/127.0.0.1-8080.json`).
    static func defaultOut(for upstream: Upstream) -> String {
        let host = upstream.hostHeader.replacingOccurrences(of: "[", with: "").replacingOccurrences(of: "]", with: "")
        let name =
            upstream.url.port == nil
            ? host
            : host.replacingOccurrences(
                of: ":", with: "-", options: .backwards,
                range: host.range(of: ":", options: .backwards))
        return "Recordings/\(name).json"
    }

    private static func upstream(_ text: String) throws(RecorderError) -> Upstream {
        do {
            return try Upstream(text)
        } catch {
            throw .usage("--upstream \(error.description)")
        }
    }

    private static func mode(_ text: String?) throws(RecorderError) -> CassetteServer.Mode {
        switch text ?? "record" {
        case "record": return .record
        case "new-episodes": return .replayOrRecord
        case let other: throw .usage("--mode '\(other)' is not record or new-episodes")
        }
    }

    /// Starts `server`; `interrupted` says that `out` has the capture log of an interrupted capture.
    private static func start(_ server: CassetteServer, port: Int, out: String, interrupted: Bool) async throws(RecorderError) -> URL {
        do {
            return try await server.start()
        } catch let error as MockServerError where ![.invalidHost, .cannotListen, .stopped].contains(error.code) {
            await server.stop()
            if error.code == .cassetteExists, interrupted {
                let held =
                    (try? Cassette.load(from: URL(fileURLWithPath: out, isDirectory: false))).map {
                        ", which holds \(counted($0.interactions.count, "interaction"))"
                    } ?? ""
                throw .failure(
                    "\(out) holds an interrupted capture (its capture log \(out).log\(held)); "
                        + "capture into it with --mode new-episodes (which keeps them and only appends), or choose another --out")
            }
            if error.code == .cassetteExists {
                throw .failure("\(out) already exists; capture into it with --mode new-episodes (which only appends), or choose another --out")
            }
            throw .failure(error.description)
        } catch {
            await server.stop()
            throw .failure("cannot listen on port \(port): \(error)")
        }
    }

    /// What was recorded and replayed, counted from the server's callbacks for the summary.
    private final class Tally: Sendable {
        private let counts = Lock((recorded: 0, replayed: 0))

        func countRecorded() { counts.withLock { $0.recorded += 1 } }
        func countReplayed() { counts.withLock { $0.replayed += 1 } }
        var recorded: Int { counts.withLock { $0.recorded } }
        var replayed: Int { counts.withLock { $0.replayed } }
    }
}
