import ServiceReplayShared

/// The entry point: picks the command, answers `--help`, and turns errors into `recorder: <sentence>` on
/// standard error and an exit status (2 for usage errors, 1 for failures).
enum Recorder {
    /// Every command, in the order `recorder --help` lists them: the one list of commands.
    static var commands: [any Command.Type] {
        [
            CaptureCommand.self, ReplayCommand.self, ListCommand.self, ShowCommand.self,
            LintCommand.self, RedactCommand.self, ImportCommand.self, ExportCommand.self, DriftCommand.self, ShrinkCommand.self,
        ]
    }

    /// The command named `name`.
    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.help.name == name }
    }

    /// A line of `recorder --help`.
    struct Summary: Sendable {
        let name: String
        let summary: String
    }

    /// What `recorder --help` lists, in this order.
    static var summaries: [Summary] {
        commands.map { Summary(name: $0.help.name, summary: $0.help.summary) }
    }

    /// The text of `recorder --help`.
    static var help: String {
        let width = summaries.map(\.name.count).max()! + 3
        var lines = [
            "OVERVIEW: Record real API exchanges into cassettes, replay them, and break them on purpose.",
            "",
            "USAGE: recorder <command> [options]",
            "",
            "COMMANDS:",
        ]
        lines += summaries.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count) + $0.summary }
        lines += ["", "Run `recorder <command> --help` for a command's arguments, options and an example."]
        return lines.joined(separator: "\n")
    }

    /// Runs the command line `arguments` (without the program name) and returns the exit status.
    static func run(_ arguments: [String], console: Console) async -> Int32 {
        guard let name = arguments.first, !["--help", "-h"].contains(name) else {
            console.print(help)
            return 0
        }
        if name == "help" {
            return showHelp(for: arguments.dropFirst().first, console: console)
        }
        guard let command = command(named: name) else {
            console.error(unknownCommand(name))
            return 2
        }
        let rest = Array(arguments.dropFirst())
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
            console.print(command.help.text)
            return 0
        }
        do {
            return try await command.run(rest, console: console)
        } catch {
            console.error(error.message)
            return error.exitStatus
        }
    }

    /// `recorder help [COMMAND]`.
    private static func showHelp(for name: String?, console: Console) -> Int32 {
        guard let name else {
            console.print(help)
            return 0
        }
        guard let command = command(named: name) else {
            console.error(unknownCommand(name))
            return 2
        }
        console.print(command.help.text)
        return 0
    }

    /// The error for an unknown command: names the nearest command when one is close (at most two edits
    /// away, or a prefix of at least two letters), else points to the list.
    static func unknownCommand(_ name: String) -> String {
        let hint = NearestName.nearest(to: name.lowercased(), among: summaries.map(\.name)).map { "did you mean '\($0)'? " } ?? ""
        return "unknown command '\(name)'; \(hint)run `recorder --help` for the list."
    }
}
