import Foundation
import MockServer

/// `recorder import FILE.har --out CASSETTE`.
enum ImportCommand: Command {
    static let help = CommandHelp(
        name: "import",
        summary: "convert a HAR 1.2 archive (browsers, Charles, Proxyman, mitmproxy) into a cassette",
        usage: "recorder import FILE.har --out CASSETTE [--name NAME] [--host HOST] [--redact-header NAME]... [--redact-field NAME]... [--force]",
        description: """
            Writes one interaction per HAR entry: method, URL, headers in order, bodies (already decoded by the
            HAR writer, so Content-Encoding, Transfer-Encoding and stale Content-Length headers are dropped),
            status, start time and duration; a failed entry (status 0) becomes a transport failure. A cassette
            has one upstream: the first entry's host. Entries for other hosts are an error unless --host picks
            one, and then they are skipped and counted. Secrets are always redacted, as in `recorder redact`
            (with the project's .servicereplay.json beside CASSETTE).
            An archive written by `recorder export` comes back as the cassette it was exported from.
            """,
        arguments: [.init(spelling: "FILE.har", text: "The HAR archive to read.")],
        options: [
            .init(spelling: "--out CASSETTE", text: "The cassette file to write (required)."),
            .init(spelling: "--name NAME", text: "The cassette's name (default: the exported name, else the file name)."),
            .init(spelling: "--host HOST", text: "Import only this host (api.example.com, host:port or https://host)."),
            .init(spelling: "--redact-header NAME", text: "Also redact this header (repeatable)."),
            .init(spelling: "--redact-field NAME", text: "Also redact this query, form or JSON field (repeatable)."),
            .init(spelling: "--force", text: "Replace CASSETTE if it exists (default: refuse)."),
        ],
        examples: ["recorder import ~/Downloads/shop.har --out Recordings/shop/cart.json --host shop.example.com"]
    )

    static func run(_ arguments: [String], console: Console) throws(RecorderError) -> Int32 {
        let parsed = try Arguments(
            arguments, options: ["out", "name", "host", "redact-header", "redact-field"], flags: ["force"],
            command: "import")
        try parsed.expectPositionals(1...1, what: "one HAR file", command: "import")
        let output = try parsed.required("out")
        let force = parsed.flag("force")
        let outputURL = URL(fileURLWithPath: output, isDirectory: false)
        if !force, FileManager.default.fileExists(atPath: output) {
            throw .failure("\(output) already exists; pass --force to replace it")
        }
        let source = parsed.positionals[0]
        let document: HARDocument
        do {
            document = try HARDocument.load(from: URL(fileURLWithPath: source, isDirectory: false))
        } catch {
            throw .failure(error.description)
        }
        var rules = CassetteRules(parsed)
        let fileName = outputURL.deletingPathExtension().lastPathComponent
        let options = HARImportOptions(
            name: try parsed.single("name") ?? (document.log.cassette == nil ? fileName : nil),
            host: try parsed.single("host"),
            redaction: try rules.rules(for: outputURL).rules
        )
        let result: HARImport
        do {
            result = try Cassette.importing(document, options: options)
        } catch {
            let located = error.located(in: source).description
            throw .failure(error.code == .multipleHosts ? located + "; pass --host to import one host and skip the others" : located)
        }
        do {
            try FileManager.default.createDirectory(at: outputURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .failure("cannot create the folder \(outputURL.deletingLastPathComponent().relativePath) (\(error.localizedDescription))")
        }
        do {
            try result.cassette.save(to: outputURL, overwrite: force)
        } catch  where error.code == .fileExists {
            throw .failure("\(output) already exists; pass --force to replace it")
        } catch {
            throw .failure(error.description)
        }
        let cassette = result.cassette
        console.print("\(output): \(counted(cassette.interactions.count, "interaction")) from \(source), upstream \(cassette.upstream ?? "unknown")")
        if result.skippedEntries > 0, let host = options.host {
            console.print("skipped \(counted(result.skippedEntries, "entry", plural: "entries")) for other hosts than \(host)")
        }
        if !result.redacted.isEmpty {
            console.print("redacted \(result.redacted)")
        }
        return 0
    }
}
