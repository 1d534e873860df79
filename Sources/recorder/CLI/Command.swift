/// One `recorder` command: its help, and its work.
protocol Command {
    /// The text `recorder NAME --help` prints; its summary is the line `recorder --help` lists.
    static var help: CommandHelp { get }

    /// Does the work for `arguments` (the words after the command's name; long-running commands such as
    /// `replay` suspend here until they are told to stop), printing to `console`.
    /// Returns the exit status when the command ran to the end: 0, or 1 when it reports problems it has
    /// already printed (lint findings, files it could not redact). Throws ``RecorderError`` to stop with one
    /// sentence: `.usage` (exit status 2) or `.failure` (exit status 1).
    static func run(_ arguments: [String], console: Console) async throws(RecorderError) -> Int32
}
