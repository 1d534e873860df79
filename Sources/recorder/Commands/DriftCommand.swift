import Foundation
import MockServer

/// `recorder drift CASSETTE... [--upstream URL] [--header 'Name: value']... [--header-field NAME]... [--all-methods]
/// [--rate N] [--max-wait SECONDS] [--strict] [--json] [--junit FILE]`.
enum DriftCommand: Command {
    /// The methods sent again without `--all-methods`: those that change nothing on the server.
    static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS"]
    /// The most requests a second drift sends; `--rate` can only lower it.
    static let defaultRate = 5.0
    /// The longest `Retry-After` waited out, in seconds, without `--max-wait`; the help states it from here.
    static let defaultMaxWait = 60
    /// The prefix of the environment variables that fill a redacted header: `RECORDER_HEADER_AUTHORIZATION`.
    static let environmentPrefix = "RECORDER_HEADER_"

    static let help = CommandHelp(
        name: "drift",
        summary: "re-send recorded requests to the live API and report changes of shape",
        usage:
            "recorder drift CASSETTE|DIR... [--upstream URL] [--header 'Name: value']... [--header-field NAME]... [--all-methods] [--rate N] [--max-wait SECONDS] [--strict] [--json] [--junit FILE]",
        description: """
            Sends each recorded request again, as recorded (method, target, header lines in order, body), to the
            cassette's upstream or --upstream, one at a time, and compares the live answer with the recorded one
            by shape, never by value: the status (a change of class is breaking, of code within a class
            additive), the Content-Type, the JSON shape at every path ($.user.login, $.items[*].id: a field
            removed, a type changed, or null where the recording had a value is breaking; a field added is
            additive), a stream's event names and each event's JSON data, and the presence of the headers named
            by --header-field. A redacted header value (<redacted>) is filled from --header, else from the
            environment variable RECORDER_HEADER_<NAME> (Authorization: RECORDER_HEADER_AUTHORIZATION, X-Api-Key:
            RECORDER_HEADER_X_API_KEY); a request that still holds a placeholder, and any method but GET, HEAD and
            OPTIONS without --all-methods (a GraphQL query excepted, and reported by operation), is skipped and
            the skip reported. A 429 or 503 with Retry-After is
            waited out (up to --max-wait). Nothing is written to a cassette. Prints one line per change under its
            interaction and a summary line; exits with status 1 when anything is breaking (or, with --strict,
            anything changed) or the upstream cannot be reached, else 0.
            """,
        arguments: [.init(spelling: "CASSETTE|DIR", text: "Cassette files or folders of them.")],
        options: [
            .init(spelling: "--upstream URL", text: "Send to this base URL instead of each cassette's upstream."),
            .init(spelling: "--header 'Name: value'", text: "Fill this header's redacted value (repeatable); never stored."),
            .init(spelling: "--header-field NAME", text: "Also compare this response header, by presence (repeatable)."),
            .init(spelling: "--all-methods", text: "Also re-send POST, PUT, PATCH, DELETE and other methods."),
            .init(spelling: "--rate N", text: "Requests a second, at most 5 (default: 5)."),
            .init(spelling: "--max-wait SECONDS", text: "The longest Retry-After waited out (default: \(defaultMaxWait))."),
            .init(spelling: "--strict", text: "Treat additive changes as breaking (exit status 1)."),
            .init(spelling: "--json", text: "Print the report as JSON instead of text."),
            .init(spelling: "--junit FILE", text: "Also write a JUnit XML report, one test case per interaction."),
        ],
        examples: [
            "recorder drift Recordings/github",
            "recorder drift Recordings/nice --header \"Authorization: Bearer $TOKEN\" --junit drift.xml",
        ]
    )

    static func run(_ arguments: [String], console: Console) async throws(RecorderError) -> Int32 {
        let parsed = try Arguments(
            arguments, options: ["upstream", "header", "header-field", "rate", "max-wait", "junit"],
            flags: ["all-methods", "strict", "json"], command: "drift")
        try parsed.expectPositionals(1...Int.max, what: "the cassettes to check", command: "drift")
        let rate = try rate(parsed)
        let longestWait = try parsed.integer("max-wait", in: 0...3600) ?? defaultMaxWait
        var override: Upstream?
        if let text = try parsed.single("upstream") { override = try upstream(text) }
        let given = try headers(parsed.all("header"))
        let junit = try parsed.single("junit")

        var cassettes: [(file: String, cassette: Cassette)] = []
        for item in CassettePaths.expand(parsed.positionals) {
            switch item {
            case .missing(_, let sentence): throw .failure(sentence)
            case .file(let url): cassettes.append((url.relativePath, try CassetteLoading.load(url.path)))
            }
        }
        if let junit, cassettes.contains(where: { URL(fileURLWithPath: $0.file).standardizedFileURL == URL(fileURLWithPath: junit).standardizedFileURL }) {
            throw .usage("--junit '\(junit)' names a cassette; drift never writes to a cassette, give another file")
        }
        let requests = cassettes.flatMap { $0.cassette.interactions.map(\.request) }
        let used = DriftRequest.usedFills(given, in: requests)
        if let unused = given.first(where: { !used.contains($0.name.lowercased()) }) {
            throw .usage(
                "--header '\(unused.name)' fills no redacted header of these cassettes; give only headers recorded as \(Cassette.redactionPlaceholder)")
        }
        let fills = fillValues(given, for: requests)

        let pacer = Pacer(interval: .seconds(1 / rate))
        var report = DriftReport(strict: parsed.flag("strict"))
        for (file, cassette) in cassettes {
            let target: Upstream
            if let override {
                target = override
            } else if let recorded = cassette.upstream {
                target = try upstream(recorded)
            } else {
                throw .usage("\(file) names no upstream; give one with --upstream URL")
            }
            let probe = DriftProbe(upstream: target, longestWait: .seconds(longestWait))
            var section = DriftReport.Section(file: file, name: cassette.name, upstream: target.description)
            for (index, interaction) in cassette.interactions.enumerated() {
                let request = interaction.request
                let entry = { (outcome: DriftReport.Verdict) in
                    DriftReport.Entry(
                        index: index, method: request.method, target: request.target, operations: request.graphQLOperations, outcome: outcome)
                }
                guard let recorded = interaction.response else {
                    section.entries.append(entry(.skipped("the recording holds a transport failure, not an answer")))
                    continue
                }
                // A GraphQL query only reads, whatever its method; a mutation waits for --all-methods like any POST.
                guard parsed.flag("all-methods") || safeMethods.contains(request.method) || request.isReadOnlyGraphQL else {
                    let what = request.isGraphQL ? "a GraphQL \(request.method) that is not a query" : request.method
                    section.entries.append(entry(.skipped("\(what) is not re-sent without --all-methods")))
                    continue
                }
                let outgoing: HTTPRequest
                switch DriftRequest.prepare(request, fills: fills) {
                case .success(let ready): outgoing = ready
                case .failure(let unfillable):
                    section.entries.append(entry(.skipped(reason(unfillable))))
                    continue
                }
                await pacer.wait()
                switch await probe.send(outgoing) {
                case .success(let live):
                    let changes = DriftComparison.changes(
                        recorded: recorded, live: live, headerFields: parsed.all("header-field"), graphQL: request.isGraphQL)
                    section.entries.append(entry(.checked(changes)))
                case .failure(let failure):
                    section.entries.append(entry(.unreachable(failure.driftReason)))
                }
            }
            report.sections.append(section)
        }
        if let sentence = report.unreachableSentence {
            throw .failure(sentence)
        }
        console.print(parsed.flag("json") ? report.json : report.text)
        if let junit {
            do {
                try Data(report.junit.utf8).write(to: URL(fileURLWithPath: junit), options: .atomic)
            } catch {
                throw .failure("cannot write the JUnit report to \(junit): \(error.localizedDescription)")
            }
        }
        return report.failed ? 1 : 0
    }

    /// Why a request with an unfillable placeholder is skipped, naming how to fill it when it can be.
    static func reason(_ unfillable: DriftRequest.Unfillable) -> String {
        switch unfillable {
        case .header(let name):
            "header \(name) is \(Cassette.redactionPlaceholder); give its value with --header '\(name): ...' or \(environmentVariable(for: name))"
        case .target: "its target holds \(Cassette.redactionPlaceholder), which cannot be filled"
        case .body: "its body holds \(Cassette.redactionPlaceholder), which cannot be filled"
        }
    }

    /// `RECORDER_HEADER_` and the header name in upper case, each character but letters and digits as `_`.
    static func environmentVariable(for header: String) -> String {
        environmentPrefix + String(header.uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }

    /// The values that fill redacted headers: those given with --header, then, for every other redacted header
    /// name in `requests`, its environment variable when set.
    static func fillValues(
        _ given: HTTPHeaders, for requests: [RecordedRequest], environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> HTTPHeaders {
        var fills = given
        for request in requests {
            for line in request.headers where line.value.contains(Cassette.redactionPlaceholder) && !fills.contains(line.name) {
                if let value = environment[environmentVariable(for: line.name)], !value.isEmpty {
                    fills.add(name: line.name, value: value)
                }
            }
        }
        return fills
    }

    /// `--header` values as header lines; each must read `Name: value`.
    static func headers(_ texts: [String]) throws(RecorderError) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for text in texts {
            guard let colon = text.firstIndex(of: ":"), !text[..<colon].trimmingCharacters(in: .whitespaces).isEmpty,
                !text[..<colon].contains(" ")
            else {
                throw .usage("--header '\(text)' is not 'Name: value'")
            }
            headers.add(name: String(text[..<colon]), value: text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return headers
    }

    /// `--rate`: a number of requests a second above 0 and at most ``defaultRate``.
    static func rate(_ parsed: Arguments) throws(RecorderError) -> Double {
        guard let text = try parsed.single("rate") else { return defaultRate }
        guard let value = Double(text), value > 0, value <= defaultRate else {
            throw .usage("--rate '\(text)' is not a number of requests a second above 0 and at most \(Int(defaultRate))")
        }
        return value
    }

    static func upstream(_ text: String) throws(RecorderError) -> Upstream {
        do { return try Upstream(text) } catch { throw .usage(error.description) }
    }
}

/// Spaces out sends: each ``wait()`` returns no sooner than `interval` after the previous one returned.
private actor Pacer {
    let interval: Duration
    private var last: ContinuousClock.Instant?

    init(interval: Duration) { self.interval = interval }

    func wait() async {
        if let last {
            try? await Task.sleep(until: last + interval, clock: .continuous)
        }
        last = .now
    }
}
