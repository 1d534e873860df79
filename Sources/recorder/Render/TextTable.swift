/// Plain columns for terminal output: cells padded to their column's width, two spaces apart, no trailing
/// spaces.
struct TextTable {
    enum Alignment {
        case left, right
    }

    let alignments: [Alignment]
    var rows: [[String]] = []

    init(_ alignments: [Alignment]) {
        self.alignments = alignments
    }

    var lines: [String] {
        var widths = [Int](repeating: 0, count: alignments.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        return rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                line += (column == 0 ? "" : "  ") + (alignments[column] == .left ? cell + padding : padding + cell)
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }
}
