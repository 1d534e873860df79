/// The table a chaos run prints: one row per fault rule (and one for calls no fault touched), with how the
/// calls it hit ended: successes, then each network-level and service-level case with its count.
///
/// ```
/// fault injected       | calls | ok | network error       | service error
/// ---------------------+-------+----+---------------------+--------------------
/// (none)               |    61 | 61 |                     |
/// reset,when=p:0.08    |     5 |  3 | connectionLost 2    |
/// ```
///
/// A call hit by two faults (a retry, a resent GET) counts in both rows.
struct ChaosTable {
    let records: [ChaosRecord]

    /// The row label for calls no fault touched.
    static let noFault = "(none)"

    /// The rows in order: untouched calls first, then fault rules by name.
    var rows: [(fault: String, records: [ChaosRecord])] {
        var byFault: [String: [ChaosRecord]] = [:]
        for record in records {
            for fault in record.faults.isEmpty ? [Self.noFault] : Array(Set(record.faults)) {
                byFault[fault, default: []].append(record)
            }
        }
        return byFault.keys.sorted { lhs, rhs in
            lhs == Self.noFault || (rhs != Self.noFault && lhs < rhs)
        }.map { ($0, byFault[$0] ?? []) }
    }

    /// The table as text, one line per row, columns padded to their widest cell.
    var text: String {
        let header = ["fault injected", "calls", "ok", "network error", "service error"]
        let body = rows.map { row in
            [
                row.fault, String(row.records.count), String(row.records.filter { $0.column == .success }.count),
                Self.counts(row.records.filter { $0.column == .network }), Self.counts(row.records.filter { $0.column == .service }),
            ]
        }
        let widths = header.indices.map { column in ([header] + body).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.indices.map { column in
                let cell = cells[column]
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                // Counts right-aligned, text left-aligned.
                return column == 1 || column == 2 ? padding + cell : cell + padding
            }.joined(separator: " | ").trimmingTrailingSpaces()
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-")
        return ([line(header), rule] + body.map(line)).joined(separator: "\n")
    }

    /// `connectionLost 2, badResponse 1`: each case with its count, most frequent first.
    private static func counts(_ records: [ChaosRecord]) -> String {
        let tally = Dictionary(grouping: records, by: \.caseName).mapValues(\.count)
        return tally.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = Substring(self)
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
