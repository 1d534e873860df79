import Foundation

/// Endpoints × fault kinds across a test run: for each endpoint (method and path pattern, and for a GraphQL
/// request its operation: `POST /graphql (GraphQL User)`), how many requests
/// it got, which faults it met and what the server sent under each. Kept as JSON, and shown as a table that
/// flags every endpoint never tested against a network-level fault.
struct CoverageReport: Codable, Sendable, Equatable {
    /// One endpoint's requests and faults.
    struct Endpoint: Codable, Sendable, Equatable {
        /// `GET /users/{n}`, `POST /graphql (GraphQL User)`.
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
            // A GraphQL API's one path holds many endpoints: each operation counts as one.
            let operations = entry.request.graphQLOperations
            let key =
                entry.request.method + " " + Self.pattern(of: RequestParts.normalizedPath(of: entry.request.target))
                + (operations.isEmpty ? "" : " (GraphQL \(operations.joined(separator: ", ")))")
            var endpoint = endpoints[key] ?? Endpoint(endpoint: key)
            endpoint.requests += 1
            if entry.outcome.kind == .faultInjected, let spec = entry.outcome.faultRule.map(FaultCoverage.ruleSpec(in:)),
                let rule = try? FaultRule.parse(spec: spec)
            {
                var met = endpoint.faults[rule.fault.name] ?? Met(family: rule.fault.family.rawValue)
                met.count += 1
                met.outcomes[entry.outcome.status.map { "status \($0)" } ?? "no response", default: 0] += 1
                endpoint.faults[rule.fault.name] = met
            }
            endpoints[key] = endpoint
        }
    }

    /// The path with each segment that picks one resource among many replaced, so that `/books/7.json` and
    /// `/books/99.json` are one endpoint: all digits as `{n}` (`/users/{n}`), and a UUID, a hex string of 16
    /// digits or more, or a token of 20 or more base64url characters mixing upper case, lower case and digits
    /// as `{id}`. An extension of up to five letters or digits, starting with a letter, is kept
    /// (`/books/{n}.json`; `/2.3` is not an extension). Words and slugs
    /// (`/repos`, `/articles/my-first-post-2024`) stay as they are.
    static func pattern(of path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            var stem = Substring(segment)
            var suffix = ""
            if let dot = segment.lastIndex(of: "."), dot != segment.startIndex {
                let ext = segment[segment.index(after: dot)...]
                if ext.count <= 5, ext.first?.isLetter == true, ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
                    stem = segment[..<dot]
                    suffix = "." + ext
                }
            }
            guard let placeholder = placeholder(for: stem) else { return String(segment) }
            return placeholder + suffix
        }.joined(separator: "/")
    }

    /// `{n}`, `{id}` or `nil`, for one path segment without its extension (see ``pattern(of:)``).
    private static func placeholder(for segment: Substring) -> String? {
        guard !segment.isEmpty, segment.allSatisfy(\.isASCII) else { return nil }
        if segment.allSatisfy(\.isNumber) { return "{n}" }
        let hexDigits = segment.allSatisfy(\.isHexDigit)
        let groups = segment.split(separator: "-", omittingEmptySubsequences: false).map(\.count)
        if groups == [8, 4, 4, 4, 12] && segment.allSatisfy({ $0 == "-" || $0.isHexDigit }) { return "{id}" }
        if hexDigits && segment.count >= 16 && segment.contains(where: \.isNumber) { return "{id}" }
        let tokenCharacters = segment.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        if tokenCharacters && segment.count >= 20 && segment.contains(where: \.isUppercase)
            && segment.contains(where: \.isLowercase) && segment.contains(where: \.isNumber)
        {
            return "{id}"
        }
        return nil
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
                body.append([
                    index == 0 ? endpoint.endpoint + flag : "", index == 0 ? String(endpoint.requests) : "", name, met.family,
                    String(met.count), outcomes.joined(separator: ", "),
                ])
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
        lines.append(
            untested.isEmpty
                ? "every endpoint met a network-level fault"
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
