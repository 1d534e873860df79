import MockServer

/// `recorder list CASSETTE`.
enum ListCommand: Command {
    static let help = CommandHelp(
        name: "list",
        summary: "list a cassette's interactions, one line each",
        usage: "recorder list CASSETTE",
        description: """
            Prints a line naming the cassette (name, interaction count, origin, upstream), then one line per
            interaction: its index, method, target, status (or the kind of transport failure), response body
            size and how long the upstream took. Indexes start at 0, as in `recorder show` and `recorder lint`.
            """,
        arguments: [.init(spelling: "CASSETTE", text: "The cassette file.")],
        options: [],
        examples: ["recorder list Recordings/github/users.json"]
    )

    static func run(_ arguments: [String], console: Console) throws(RecorderError) -> Int32 {
        let parsed = try Arguments(arguments, options: [], flags: [], command: "list")
        try parsed.expectPositionals(1...1, what: "one cassette", command: "list")
        let cassette = try CassetteLoading.load(parsed.positionals[0])
        console.print(InteractionTable.lines(for: cassette).joined(separator: "\n"))
        return 0
    }
}
