/// A command's `--help` text, laid out as swift-argument-parser does: overview, usage, arguments, options
/// (with their defaults), examples.
struct CommandHelp: Sendable {
    /// An argument or option and what it does.
    struct Entry: Sendable {
        /// As typed: `CASSETTE`, `--host HOST`, `--force`.
        let spelling: String
        /// What it means, with its default when it has one.
        let text: String
    }

    /// The command's name, as typed after `recorder`.
    let name: String
    /// One line for `recorder --help`, lower case, without a final period.
    let summary: String
    /// The usage line after `USAGE:`.
    let usage: String
    /// What the command does, in a few sentences.
    let description: String
    /// The positional arguments.
    let arguments: [Entry]
    /// The options; `-h, --help` is added to every command.
    let options: [Entry]
    /// Command lines to copy.
    let examples: [String]

    /// The full help text.
    var text: String {
        var lines = ["OVERVIEW: \(summary.prefix(1).uppercased() + summary.dropFirst()).", "", description, "", "USAGE: \(usage)"]
        if !arguments.isEmpty {
            lines += ["", "ARGUMENTS:"] + arguments.flatMap(CommandHelp.layout)
        }
        lines += ["", "OPTIONS:"] + (options + [Entry(spelling: "-h, --help", text: "Show this help.")]).flatMap(CommandHelp.layout)
        lines += ["", examples.count == 1 ? "EXAMPLE:" : "EXAMPLES:"] + examples.map { "  " + $0 }
        return lines.joined(separator: "\n")
    }

    private static let column = 26

    /// `  SPELLING   text`, the text starting on the next line when the spelling is too long.
    private static func layout(_ entry: Entry) -> [String] {
        let head = "  " + entry.spelling
        if head.count + 2 <= column {
            return [head + String(repeating: " ", count: column - head.count) + entry.text]
        }
        return [head, String(repeating: " ", count: column) + entry.text]
    }
}
