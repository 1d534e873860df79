import Foundation
import MockServer

/// `recorder export CASSETTE --har FILE`.
enum ExportCommand: Command {
    static let help = CommandHelp(
        name: "export",
        summary: "convert a cassette into a HAR 1.2 archive",
        usage: "recorder export CASSETTE --har FILE [--force]",
        description: """
            Writes one HAR entry per interaction, with the cassette's upstream and the request's target as the
            URL, headers in order, bodies as text (base64 for binary ones), status, start time and duration; a
            transport failure becomes a failed entry (status 0). What HAR has no place for (name, match rules,
            error templates) is kept in the log's _servicereplay field, so `recorder import` gives the same
            cassette back.
            """,
        arguments: [.init(spelling: "CASSETTE", text: "The cassette file to read.")],
        options: [
            .init(spelling: "--har FILE", text: "The HAR file to write (required)."),
            .init(spelling: "--force", text: "Replace FILE if it exists (default: refuse)."),
        ],
        examples: ["recorder export Recordings/github/users.json --har users.har"]
    )

    static func run(_ arguments: [String], console: Console) throws(RecorderError) -> Int32 {
        let parsed = try Arguments(arguments, options: ["har"], flags: ["force"], command: "export")
        try parsed.expectPositionals(1...1, what: "one cassette", command: "export")
        let output = try parsed.required("har")
        let force = parsed.flag("force")
        if !force, FileManager.default.fileExists(atPath: output) {
            throw .failure("\(output) already exists; pass --force to replace it")
        }
        let path = parsed.positionals[0]
        let cassette = try CassetteLoading.load(path)
        do {
            try cassette.har().save(to: URL(fileURLWithPath: output, isDirectory: false), overwrite: force)
        } catch  where error.code == .fileExists {
            throw .failure("\(output) already exists; pass --force to replace it")
        } catch {
            throw .failure(error.file == nil ? error.located(in: path).description : error.description)
        }
        console.print("\(output): \(counted(cassette.interactions.count, "entry", plural: "entries")) from \(path)")
        return 0
    }
}
