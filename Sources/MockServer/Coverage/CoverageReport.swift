import Foundation

/// Endpoints × fault kinds across a test run: for each endpoint (method and path pattern), how many requests
/// it got, which faults it met and what the server sent under each. Kept as JSON, and shown as a table that
/// flags every endpoint never tested against a network-level fault.
struct CoverageReport: Codable, Sendable, Equatable {
    /// One endpoint's requests and faults.
    struct Endpoint: Codable, Sendable, Equatable {
        /// `GET /users/{n}`.
        var endpoint: String
        var requests = 0
        /// By fault kind (`reset`, `status`, `service-error`): how often, its family, and what was sent.
        var faults: [String: Met] = [:]

        /// Whether any network-level fault reached it.
        var metNetworkFault: Bool { faults.values.contains { $0.family == "network" } }
    }

    /// How often an endpoint met one fault kind, and what came of it.
    struct Met: Codable, Sendable, Equatable {
        /// `network`, `http` or `service`.
        var family: String
        var count = 0
        /// What the server sent, by `status 503` or `no response`, with counts.
        var outcomes: [String: Int] = [:]
    }

    var endpoints: [String: Endpoint] = [:]
    /// Connections closed on accept by `refuse` (no endpoint: nothing was read).
    var refusedConnections = 0

    /// Adds a server's journal.
    mutating func add(_ entries: [JournalEntry], refusedConnections refused: Int) {
        refusedConnections += refused
        for entry in entries {
            let key = entry.request.method + " " + Self.pattern(of: RequestParts.normalizedPath(of: entry.request.target))
            var endpoint = endpoints[key] ?? Endpoint(endpoint: key)
            endpoint.requests += 1
            if entry.outcome.kind == .faultInjected, let spec = entry.outcome.faultRule.map(FaultCoverage.ruleSpec(in:)),
               let rule = try? FaultRule.parse(spec: spec) {
                var met = endpoint.faults[rule.fault.name] ?? Met(family: rule.fault.family.rawValue)
                met.count += 1
                met.outcomes[entry.outcome.status.map { "status \($0)" } ?? "no response", default: 0] += 1
                endpoint.faults[rule.fault.name] = met
            }
            endpoints[key] = endpoint
        }
    }

    /// The path with every all-digit segment as `{n}`, so that `/users/1` and `/users/2` are one endpoint.
    static func pattern(of path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            !segment.isEmpty && segment.allSatisfy(\.isASCII) && segment.allSatisfy(\.isNumber) ? "{n}" : String(segment)
        }.joined(separator: "/")
    }

    /// The endpoints no network-level fault reached, sorted.
    var untestedAgainstNetworkFaults: [String] {
        endpoints.values.filter { !$0.metNetworkFault }.map(\.endpoint).sorted()
    }

    /// The table: one line per endpoint and fault kind met (`(none)` for an endpoint that met none), and a
    /// closing line flagging the endpoints never tested against a network-level fault.
    var table: String {
        let header = ["endpoint", "requests", "fault", "family", "times", "server sent"]
        var body: [[String]] = []
        for endpoint in endpoints.values.sorted(by: { $0.endpoint < $1.endpoint }) {
            let flag = endpoint.metNetworkFault ? "" : "  [no network fault]"
            if endpoint.faults.isEmpty {
                body.append([endpoint.endpoint + flag, String(endpoint.requests), "(none)", "", "", ""])
            }
            for (index, (name, met)) in endpoint.faults.sorted(by: { $0.key < $1.key }).enumerated() {
                let outcomes = met.outcomes.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) ×\($0.value)" }
                body.append([index == 0 ? endpoint.endpoint + flag : "", index == 0 ? String(endpoint.requests) : "", name, met.family,
                             String(met.count), outcomes.joined(separator: ", ")])
            }
        }
        let widths = header.indices.map { column in ([header] + body).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            var text = cells.indices.map { cells[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: " | ")
            while text.last == " " { text.removeLast() }
            return text
        }
        var lines = [line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-")] + body.map(line)
        if refusedConnections > 0 { lines.append("refuse: \(refusedConnections) connections closed on accept (before any endpoint)") }
        let untested = untestedAgainstNetworkFaults
        lines.append(untested.isEmpty ? "every endpoint met a network-level fault"
                     : "never tested against a network-level fault: " + untested.joined(separator: ", "))
        return lines.joined(separator: "\n")
    }

    static func read(from url: URL) throws -> CoverageReport {
        try JSONDecoder().decode(CoverageReport.self, from: Data(contentsOf: url))
    }

    /// Where the table of the report at `url` goes: beside it, with the extension `.txt`.
    static func tableFile(beside url: URL) -> URL {
        url.deletingPathExtension().appendingPathExtension("txt")
    }

    /// Writes the JSON to `url`, atomically.
    func writeJSON(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: url, options: .atomic)
    }

    /// Writes the table to `url`, atomically.
    func writeTable(to url: URL) throws {
        try Data((table + "\n").utf8).write(to: url, options: .atomic)
    }
}
