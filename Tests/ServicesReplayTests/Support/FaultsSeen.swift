@testable import MockServer

/// The fault rules a server injected, in its plan's spelling (`status=503,when=first:1`), in order:
/// `refuse` first (once, however many connections it closed: a refused client may or may not try again),
/// then every rule that fired for a request.
struct FaultsSeen: Sendable {
    let rules: [String]

    init(_ server: CassetteServer) {
        self.init(refused: server.refusedConnections, journal: server.journal.entries)
    }

    init(refused: [FaultDecision], journal: [JournalEntry]) {
        let refusals = Set(refused.map(\.rule.description)).sorted()
        rules = refusals + journal.compactMap { $0.outcome.faultRule.map { Self.spelling(of: $0) } }
    }

    /// The rule's spelling inside a journal record (`rule 1 'reset' on match 1` → `reset`).
    static func spelling(of record: String) -> String {
        guard let open = record.firstIndex(of: "'"), let close = record.lastIndex(of: "'"), open < close else { return record }
        return String(record[record.index(after: open)..<close])
    }
}
