import Foundation

/// Which endpoints met which faults across a whole test run, gathered from every server's journal when it
/// stops, for the report `MOCKSERVER_FAULT_COVERAGE` asks for, and the fault decisions `MOCKSERVER_FAULT_LOG`
/// asks for (what `recorder shrink` turns into a deterministic plan).
///
/// Servers of several test processes may stop at once: each merges into the files under an exclusive lock on
/// a lock file beside them, and writes them atomically.
package enum FaultCoverage {
    /// The variable naming the report's JSON file; the table goes beside it, with the extension `.txt`.
    package static let reportVariable = "MOCKSERVER_FAULT_COVERAGE"
    /// The variable naming the file each fault decision is appended to, one JSON line each.
    package static let logVariable = "MOCKSERVER_FAULT_LOG"

    /// Adds what a server saw (its journal's `entries` and the connections its fault plan refused, asked for
    /// only when a file is named) to the files the environment names; does nothing when it names none. A file
    /// that cannot be written earns a one-sentence warning on standard error, naming it and why: a test's
    /// outcome never depends on it. (``record(_:environment:)``, in the engine, passes a server's.)
    static func record(entries: () -> [JournalEntry], refusedConnections: () -> [FaultDecision], environment: [String: String]) {
        do {
            try write(entries: entries, refusedConnections: refusedConnections, environment: environment)
        } catch {
            FileHandle.standardError.write(Data("warning: the fault coverage was not written: \(error).\n".utf8))
        }
    }

    /// ``record(entries:refusedConnections:environment:)``'s work. Throws ``MockServerError`` `fileSystem`,
    /// naming the file and the system's reason, when a file or its folder cannot be created or written.
    static func write(entries: () -> [JournalEntry], refusedConnections: () -> [FaultDecision], environment: [String: String]) throws(MockServerError) {
        let report = environment[reportVariable].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        let log = environment[logVariable].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        guard report != nil || log != nil else { return }
        let entries = entries()
        let refusals = refusedConnections().map { FaultLogLine(fault: $0.rule.description, connection: $0.count) }
        if let log {
            try writing(log) {
                try FileLock.withLock(beside: log) {
                    try append(decisions(in: entries) + refusals, to: log)
                }
            }
        }
        if let report {
            let table = CoverageReport.tableFile(beside: report)
            try writing(report) {
                try FileLock.withLock(beside: report) {
                    var coverage = (try? CoverageReport.read(from: report)) ?? CoverageReport()
                    coverage.add(entries, refusedConnections: refusals.count)
                    try coverage.writeJSON(to: report)
                    try writing(table) { try coverage.writeTable(to: table) }
                }
            }
        }
    }

    /// Runs `body`, which writes `file`, turning what Foundation throws into one sentence naming the file.
    private static func writing(_ file: URL, _ body: () throws -> Void) throws(MockServerError) {
        do {
            try body()
        } catch let error as MockServerError {
            throw error
        } catch {
            throw MockServerError(code: .fileSystem, file: file.path, reason: "cannot be written (\(Cassette.reason(of: error)))")
        }
    }

    /// Each injected fault of `entries` with its request's method, path and rank among the server's requests
    /// with that method and path.
    static func decisions(in entries: [JournalEntry]) -> [FaultLogLine] {
        var seen: [String: Int] = [:]
        var lines: [FaultLogLine] = []
        for entry in entries {
            let path = RequestParts.normalizedPath(of: entry.request.target)
            let key = entry.request.method + " " + path
            seen[key, default: 0] += 1
            if entry.outcome.kind == .faultInjected, let rule = entry.outcome.faultRule.map(ruleSpec(in:)) {
                lines.append(FaultLogLine(fault: rule, method: entry.request.method, path: path, nth: seen[key] ?? 1))
            }
        }
        return lines
    }

    /// The rule's spelling inside a journal's fault record (`rule 1 'reset' on match 1` → `reset`).
    static func ruleSpec(in record: String) -> String {
        guard let open = record.firstIndex(of: "'"), let close = record.lastIndex(of: "'"), open < close else { return record }
        return String(record[record.index(after: open)..<close])
    }

    private static func append(_ lines: [FaultLogLine], to url: URL) throws {
        guard !lines.isEmpty else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var data = Data()
        for line in lines {
            data.append(try encoder.encode(line))
            data.append(UInt8(ascii: "\n"))
        }
        if !FileManager.default.fileExists(atPath: url.path) {
            try Data().write(to: url)
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: data)
    }
}

/// One fault decision of a test run: the rule that fired, and which request (the `nth` with its method and
/// path on its server) or connection (`refuse`) it hit.
package struct FaultLogLine: Codable, Sendable, Hashable {
    /// The rule as its plan spells it (`status=503,when=p:0.1`).
    package var fault: String
    package var method: String?
    package var path: String?
    package var nth: Int?
    /// For `refuse`: which connection the rule counted, from 1.
    package var connection: Int?

    package init(fault: String, method: String? = nil, path: String? = nil, nth: Int? = nil, connection: Int? = nil) {
        self.fault = fault
        self.method = method
        self.path = path
        self.nth = nth
        self.connection = connection
    }

    /// Every line of the log at `url`; lines that are not a decision are skipped.
    package static func read(from url: URL) throws -> [FaultLogLine] {
        let text = try String(contentsOf: url, encoding: .utf8)
        let decoder = JSONDecoder()
        return text.split(separator: "\n").compactMap { try? decoder.decode(FaultLogLine.self, from: Data($0.utf8)) }
    }
}
