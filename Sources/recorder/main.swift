import Foundation

let usage = """
    recorder: record real API exchanges into cassettes, replay them, and break them on purpose.

    usage: recorder <command> [options]
    Commands are added as they are built; run `recorder --help` for this text.
    """

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty || arguments == ["--help"] || arguments == ["-h"] || arguments == ["help"] {
    print(usage)
    exit(0)
}
FileHandle.standardError.write(Data("recorder: unknown command '\(arguments[0])'; run `recorder --help` for the list.\n".utf8))
exit(2)
