@testable import recorder
import Foundation
import Testing

@Suite struct HelpTests {
    static let commands = ["capture", "list", "show", "lint", "redact", "import", "export", "drift", "shrink"]

    @Test func globalHelp_listsEveryCommand_withItsSummary() async throws {
        // When asking for help
        let result = try await runRecorder(["--help"])
        // Then every command, capture and replay included, has its line
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("USAGE: recorder <command> [options]"))
        let commandLines = lines.drop { $0 != "COMMANDS:" }.dropFirst().prefix { !$0.isEmpty }
        #expect(
            Array(commandLines) == [
                "  capture   record a real API into a cassette through a reverse proxy",
                "  replay    serve cassettes to any client, with optional faults",
                "  list      list a cassette's interactions, one line each",
                "  show      show one interaction in full, or as the curl command that sends its request",
                "  lint      check cassettes for format errors, duplicates and leftover secrets",
                "  redact    apply the redaction rules to existing cassettes, in place",
                "  import    convert a HAR 1.2 archive (browsers, Charles, Proxyman, mitmproxy) into a cassette",
                "  export    convert a cassette into a HAR 1.2 archive",
                "  drift     re-send recorded requests to the live API and report changes of shape",
                "  shrink    reduce a failing run under a random fault plan to a one-line reproduction",
            ])
    }

    @Test func everyListedCommand_runsUnderTheNameItIsListedBy() {
        // The list `recorder --help` prints is the list of commands that run: one list, so they cannot drift apart
        #expect(Recorder.summaries.map(\.name) == ["capture", "replay"] + Self.commands.dropFirst())
        for summary in Recorder.summaries {
            #expect(Recorder.command(named: summary.name)?.help.summary == summary.summary)
        }
        #expect(Recorder.command(named: "help") == nil)
    }

    @Test(arguments: [[], ["-h"], ["help"]])
    func otherSpellings_printTheSameGlobalHelp(arguments: [String]) async throws {
        let result = try await runRecorder(arguments)
        #expect(result.status == 0)
        #expect(result.stdout == Recorder.help + "\n")
    }

    @Test(arguments: commands)
    func commandHelp_hasUsageDescriptionOptionsAndAnExample(command: String) async throws {
        // When asking a command for its help
        let result = try await runRecorder([command, "--help"])
        // Then it prints its own help and nothing else
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let text = result.stdout
        #expect(text.hasPrefix("OVERVIEW: "))
        #expect(text.contains("\nUSAGE: recorder \(command)"))
        #expect(text.contains("\nOPTIONS:\n"))
        #expect(text.contains("\n  -h, --help              Show this help.\n"))
        #expect(text.contains("\nEXAMPLE"))
        #expect(text.contains("\n  recorder \(command) "))
        // And every other spelling agrees
        #expect(try await runRecorder([command, "-h"]).stdout == text)
        #expect(try await runRecorder(["help", command]).stdout == text)
        #expect(try await runRecorder([command, "anything", "--help"]).stdout == text)
    }

    @Test func optionsWithDefaults_sayTheirDefault() {
        let text = ImportCommand.help.text
        #expect(text.contains("\n  --force                 Replace CASSETTE if it exists (default: refuse).\n"))
        #expect(LintCommand.help.text.contains("\n  PATH                    Cassette files or folders (default: Recordings/).\n"))
    }

    @Test(arguments: [
        (["frobnicate"], "recorder: unknown command 'frobnicate'; run `recorder --help` for the list.\n"),
        (["captur"], "recorder: unknown command 'captur'; did you mean 'capture'? run `recorder --help` for the list.\n"),
        (["repaly"], "recorder: unknown command 'repaly'; did you mean 'replay'? run `recorder --help` for the list.\n"),
        (["exprt"], "recorder: unknown command 'exprt'; did you mean 'export'? run `recorder --help` for the list.\n"),
        (["help", "lnt"], "recorder: unknown command 'lnt'; did you mean 'lint'? run `recorder --help` for the list.\n"),
        (["help", "frobnicate"], "recorder: unknown command 'frobnicate'; run `recorder --help` for the list.\n"),
    ])
    func unknownCommand_exitsTwo_withOneSentence(arguments: [String], message: String) async throws {
        let result = try await runRecorder(arguments)
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == message)
    }
}
