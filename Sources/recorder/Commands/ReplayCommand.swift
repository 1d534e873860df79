import Foundation
import MockServer

/// `recorder replay [CASSETTE|DIR ...] [--port N] [--fault SPEC]... [--faults PLAN.json] [--seed N] [--stream-timing T] [--journal N] [--control-token TOKEN] [--allow-host NAME]... [--strict] [--quiet]`.
enum ReplayCommand: Command {
    /// Where `--control-token`'s default comes from.
    static let controlTokenVariable = "MOCKSERVER_CONTROL_TOKEN"

    static let help = CommandHelp(
        name: "replay",
        summary: "serve cassettes to any client, with optional faults",
        usage:
            "recorder replay [CASSETTE|DIR ...] [--port N] [--fault SPEC]... [--faults PLAN.json] [--seed N] [--stream-timing T] [--journal N] [--control-token TOKEN] [--allow-host NAME]... [--strict] [--quiet]",
        description: """
            Serves the cassettes on 127.0.0.1 until Ctrl-C or SIGTERM (exit status 0), printing the address, then
            one line per request (its target redacted as a cassette holds it) with what answered it: a recorded interaction, a fault, or nothing (a 404 whose
            JSON body names the closest recorded request and how it differs). Faults come from --fault specs,
            from a --faults plan file, or else from the MOCKSERVER_FAULTS and MOCKSERVER_SEED environment
            variables. A fault spec reads KIND[=ARG][,when=TRIGGER][,path=GLOB][,method=METHOD][,operation=NAME] (a GraphQL operation), for example
            status=503,when=first:2 or latency=100..300ms,when=p:0.5,path=/users*; several specs may also be
            separated by ';'. Kinds: \(Fault.kindNames.joined(separator: ", ")). The ws-* kinds break a recorded
            WebSocket conversation after N server messages (ws-drop=1, ws-close=1011,after=2, ws-delay=500ms) and
            apply to upgrade requests only.
            The control API answers under /__mockserver/ on the same address (its address is printed too): GET
            journal (?since=N pages), unmatched and unused, as JSON, credentials redacted; GET journal/events, the
            journal live as server-sent events, and journal.har, as HAR; GET, PUT (rules as the body) and DELETE
            faults; GET and PUT cassettes ({"cassettes": ["name", ...]}, named as in the first folder served);
            POST reset. Its own address is the journal page, which shows the requests live in a browser. It is
            never matched, faulted or journaled itself. Only requests addressed to a loopback name are answered
            (Host 127.0.0.1, localhost or [::1], any port; others get 421), a request a browser marks as sent
            by a page of another site is refused (403), and so is a control request that would change something
            sent by a page of another origin, so that no page in a browser can read or steer the server;
            --allow-host lets a name through on purpose.
            """,
        arguments: [.init(spelling: "CASSETTE|DIR", text: "Cassette files or folders of them (default: Recordings/).")],
        options: [
            .init(spelling: "--port N", text: "The port to listen on (default: 0, any free port)."),
            .init(spelling: "--fault SPEC", text: "Inject a fault; repeat for several rules, tried in order."),
            .init(spelling: "--faults PLAN.json", text: "Read the fault rules and seed from a plan file."),
            .init(spelling: "--seed N", text: "The seed for random fault decisions (default: the plan's, else 1)."),
            .init(spelling: "--stream-timing T", text: "How streams replay: recorded (default), instant, or a speed such as 2x."),
            .init(spelling: "--journal N", text: "How many requests the control API's journal keeps, newest last (default: 1000)."),
            .init(
                spelling: "--control-token TOKEN",
                text: "Require Authorization: Bearer TOKEN on every control API request (default: MOCKSERVER_CONTROL_TOKEN, else none)."),
            .init(
                spelling: "--allow-host NAME",
                text: "Also answer requests addressed to NAME, such as a Docker service or 10.0.2.2 (repeatable; * allows any name)."),
            .init(spelling: "--strict", text: "Exit with status 1 at shutdown if any request was unmatched."),
            .init(spelling: "--quiet", text: "Print no line per request (for benchmarks)."),
        ],
        examples: [
            "recorder replay",
            "recorder replay Recordings/github --port 8080 --fault 'status=503,when=first:1'",
            "curl -i http://127.0.0.1:8080/users/octocat",
        ]
    )

    static func run(_ arguments: [String], console: Console) async throws(RecorderError) -> Int32 {
        let parsed = try Arguments(
            arguments, options: ["port", "fault", "faults", "seed", "stream-timing", "journal", "control-token", "allow-host"], flags: ["strict", "quiet"],
            command: "replay")
        let port = try parsed.integer("port", in: 0...65535) ?? 0
        let plan = try faultPlan(parsed)
        var streamTiming = StreamTiming.recorded
        if let text = try parsed.single("stream-timing") {
            guard let timing = StreamTiming.parse(text) else {
                throw .usage("--stream-timing '\(text)' is not recorded, instant or a speed such as 2x")
            }
            streamTiming = timing
        }
        // The journal is for the control API alone (lines are printed as they come, strict mode has its own
        // list), so it keeps a bounded window: requests kept beyond what a reader pages through cost memory.
        let journal = try parsed.integer("journal", in: 1...Journal.defaultCapacity) ?? 1000
        let controlToken = try controlToken(parsed, environment: ProcessInfo.processInfo.environment)
        let paths = parsed.positionals.isEmpty ? ["Recordings"] : parsed.positionals
        let files = try cassetteFiles(paths)
        var configuration = CassetteServer.Configuration(strict: parsed.flag("strict"), journalCapacity: journal)
        // PUT /__mockserver/cassettes switches by name among the cassettes of the first folder served.
        configuration.recordingsFolder = paths.first { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
        }.map { URL(fileURLWithPath: $0, isDirectory: true) }
        configuration.controlToken = controlToken
        configuration.allowedHosts = parsed.all("allow-host")
        configuration.server = HTTPServer.Configuration(port: UInt16(port))
        configuration.streamTiming = streamTiming
        if let plan {
            configuration.faults = .plan(plan)
        }
        configuration.onDescriptorsExhausted = ExhaustionWarning.printer(to: console)
        if !parsed.flag("quiet") {
            configuration.onRequest = { entry in console.print(ReplayLine.text(for: entry)) }
            configuration.onRejection = { rejected in console.print(rejected.description) }
            configuration.onConversationNearMiss = { nearMiss in console.print(ReplayLine.text(forConversation: nearMiss)) }
        }
        // The cassettes are loaded with the server, before its fault plan's error templates are resolved
        // against them: a plan naming a template none of them holds fails here, as a usage error.
        let loadStart = ContinuousClock.now
        let server: CassetteServer
        do {
            server = try CassetteServer(contentsOf: files, configuration: configuration)
        } catch {
            throw error.code == .invalidFaultPlan || error.code == .invalidConfiguration ? .usage(error.description) : .failure(error.description)
        }
        releaseFreedHeap()
        let interactions = server.engine.interactionCount
        let loadTime = ContinuousClock.now - loadStart
        // Catch Ctrl-C before the address is printed: a client (or a script) may signal right after reading it.
        let signals = ShutdownSignal.Catcher()
        let url: URL
        do {
            url = try await server.start()
        } catch {
            throw .failure("cannot serve on port \(port): \(error)")
        }
        let milliseconds = Int((Double(loadTime.components.attoseconds) / 1e15 + Double(loadTime.components.seconds) * 1000).rounded())
        console.print(
            "Replaying \(counted(files.count, "cassette")) (\(counted(interactions, "interaction")), loaded in \(milliseconds) ms) on \(url.absoluteString)")
        if let control = server.controlURL {
            console.print("Control API: \(control.absoluteString) (journal, journal/events, journal.har, unmatched, unused, faults, cassettes, reset)")
            console.print("Journal page: \(control.absoluteString) (open it in a browser)")
        }
        if let faults = server.faultPlan {
            console.print("Faults: \(faults)")
        }
        console.print("Press Ctrl-C to stop.")
        let signal = await signals.wait()
        await server.stop()
        console.print("Stopped on \(signal) after \(counted(server.journal.recordedCount, "request")).")
        if parsed.flag("strict") {
            do {
                try server.verifyNoUnmatchedRequests()
            } catch {
                console.error(error.description)
                return 1
            }
        }
        return 0
    }

    /// Hands back to the system the heap that loading freed (the file's bytes, the parse's values) and that
    /// glibc would otherwise keep resident for as long as the server runs: about 4 MB at 100,000
    /// interactions. Other C libraries return it without being asked, or have no such call.
    private static func releaseFreedHeap() {
        #if canImport(Glibc)
        guard let trim = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return }
        _ = unsafeBitCast(trim, to: (@convention(c) (Int) -> Int32).self)(0)
        #endif
    }

    /// The control API's token: `--control-token`, else `MOCKSERVER_CONTROL_TOKEN` in `environment`, else `nil`.
    /// - Throws: a usage error when the one given is empty (a set but empty variable would open the API to no one).
    static func controlToken(_ parsed: Arguments, environment: [String: String]) throws(RecorderError) -> String? {
        let flag = try parsed.single("control-token")
        guard let token = flag ?? environment[controlTokenVariable] else { return nil }
        guard !token.isEmpty else {
            throw .usage(
                flag == nil
                    ? "\(controlTokenVariable) is set but empty; give it a token of at least one character, or unset it"
                    : "--control-token is empty; give a token of at least one character, or leave the option out")
        }
        return token
    }

    /// The plan from `--fault`/`--faults`/`--seed`, or `nil` to fall back to the environment.
    private static func faultPlan(_ parsed: Arguments) throws(RecorderError) -> FaultPlan? {
        let specs = parsed.all("fault")
        let file = try parsed.single("faults")
        var seed: UInt64?
        if let text = try parsed.single("seed") {
            guard let value = UInt64(text) else { throw .usage("--seed '\(text)' is not a whole number from 0 to 2^64-1") }
            seed = value
        }
        if !specs.isEmpty, file != nil {
            throw .usage("give fault rules with --fault or with --faults, not both")
        }
        do {
            var plan: FaultPlan
            if let file {
                plan = try FaultPlan.load(contentsOf: URL(fileURLWithPath: file))
            } else if !specs.isEmpty {
                plan = try FaultPlan.parse(specs: specs.joined(separator: ";"))
            } else if seed != nil {
                guard var fromEnvironment = try FaultPlan.fromEnvironment() else {
                    throw RecorderError.usage("--seed needs fault rules from --fault, --faults or MOCKSERVER_FAULTS")
                }
                fromEnvironment.seed = seed!
                return fromEnvironment
            } else {
                return nil
            }
            if let seed { plan.seed = seed }
            return plan
        } catch let error as MockServerError {
            throw .usage(error.description)
        } catch let error as RecorderError {
            throw error
        } catch {
            throw .failure("\(error)")
        }
    }

    /// The cassette files `paths` name, in order; the first path naming nothing fails.
    private static func cassetteFiles(_ paths: [String]) throws(RecorderError) -> [URL] {
        var files: [URL] = []
        for item in CassettePaths.expand(paths) {
            switch item {
            case .file(let url):
                files.append(url)
            case .missing(_, let sentence):
                throw .failure(sentence)
            }
        }
        guard !files.isEmpty else {
            throw .failure("no cassettes found in \(paths.joined(separator: ", "))")
        }
        return files
    }
}
