import Foundation
import MockServer

/// `recorder lint [PATH...]`.
enum LintCommand: Command {
    static let help = CommandHelp(
        name: "lint",
        summary: "check cassettes for format errors, duplicates and leftover secrets",
        usage: "recorder lint [PATH...] [--redact-header NAME]... [--redact-field NAME]...",
        description: """
            Checks every cassette file named, and every *.json file under the folders named, and prints one line
            per finding: a file that does not load (naming the interaction and field), an interaction replay
            never needs (same request under the cassette's match rules and same response as an earlier one), and
            a secret left in it: exactly what `recorder redact` would replace (credential headers, tokens,
            passwords and keys in queries, forms and JSON, signatures and tokens in the URLs that headers,
            bodies and stream events hold, JWTs, known token formats, long high-entropy request header values), naming the
            rule and what to add to allow when the value is no secret; identifiers and cursors such as
            X-Request-Id, UploadId, NextContinuationToken, _token or cursor are none. Also a recorded refused
            connection (recorded while the upstream could not be reached; hand-written cassettes and
            interactions without recordedAt may hold one on purpose), and leftover *.recording-* files. A file
            in an older format version gets a line naming its version (not a finding). Ends with a summary line
            and exits with status 1 when there is any finding.

            Reads the project's rules from .servicereplay.json in the cassettes' Recordings folder (or in a
            cassette's own folder outside one), as redact and every recording do:
            {"allow": ["UploadId", "$.meta.revision"], "redact": ["X-Custom-Key", "pin"]}. allow lists names,
            JSON paths ($.a.b, [*] for any index) or whole values that are no secret; redact lists names and
            JSON paths that are. A malformed file, or an unknown key in it, stops the command with one sentence
            and status 1.
            """,
        arguments: [.init(spelling: "PATH", text: "Cassette files or folders (default: Recordings/).")],
        options: [
            .init(spelling: "--redact-header NAME", text: "Also treat this header as a credential (repeatable)."),
            .init(spelling: "--redact-field NAME", text: "Also treat this query, form or JSON field as a secret (repeatable)."),
        ],
        examples: ["recorder lint", "recorder lint Recordings/github --redact-header X-Session"]
    )

    static func run(_ arguments: [String], console: Console) throws(RecorderError) -> Int32 {
        let parsed = try Arguments(arguments, options: ["redact-header", "redact-field"], flags: [], command: "lint")
        var paths = parsed.positionals
        if paths.isEmpty {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: "Recordings", isDirectory: &isFolder), isFolder.boolValue else {
                throw .failure("there is no Recordings/ folder here; name the cassettes or folders to lint")
            }
            paths = ["Recordings"]
        }
        var rules = CassetteRules(parsed)
        let items = CassettePaths.expand(paths)
        // Every rules file is read before any line is printed, so that a malformed one stops the command whole.
        for case .file(let url) in items { _ = try rules.rules(for: url) }
        var cassettes = 0, interactions = 0, findings = 0
        for item in items {
            switch item {
            case .missing(_, let sentence):
                console.print(sentence)
                findings += 1
            case .file(let url):
                cassettes += 1
                let (judged, rulesFile) = try rules.rules(for: url)
                let found: [LintFinding]
                do {
                    let cassette = try Cassette.load(from: url)
                    interactions += cassette.interactions.count
                    if cassette.formatVersion < Cassette.currentVersion {
                        console.print(
                            "\(url.relativePath): format version \(cassette.formatVersion); it loads and replays as it is, and is written as version \(Cassette.currentVersion) when next saved"
                        )
                    }
                    found = CassetteLinter(rules: judged).findings(in: cassette, file: url.relativePath, rulesFile: rulesFile)
                } catch {
                    found = [LintFinding(kind: .format, description: error.description)]
                }
                found.forEach { console.print($0.description) }
                findings += found.count
            }
        }
        for leftover in leftoverRecordings(in: paths) {
            console.print(leftover)
            findings += 1
        }
        console.print("\(counted(cassettes, "cassette")), \(counted(interactions, "interaction")), \(counted(findings, "finding"))")
        return findings == 0 ? 0 : 1
    }

    /// One finding per `NAME.json.recording-*` file under the folders named (or beside the files named): a new
    /// recording that `MOCKSERVER_RECORD=all` kept aside because its test failed or was stopped, which is
    /// neither loaded nor replayed, and which someone has to settle.
    static func leftoverRecordings(in paths: [String]) -> [String] {
        var found: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            let folder = exists && isFolder.boolValue ? path : (path as NSString).deletingLastPathComponent
            let only = exists && isFolder.boolValue ? nil : (path as NSString).lastPathComponent + ".recording-"
            let names =
                (exists && isFolder.boolValue
                    ? FileManager.default.subpaths(atPath: folder)
                    : try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
            for name in names.sorted() {
                let file = (name as NSString).lastPathComponent
                guard let marker = file.range(of: ".recording-"), only.map({ file.hasPrefix($0) }) ?? true else { continue }
                let shown = folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
                let cassette =
                    (shown as NSString).deletingLastPathComponent.isEmpty
                    ? String(file[..<marker.lowerBound])
                    : ((shown as NSString).deletingLastPathComponent as NSString).appendingPathComponent(String(file[..<marker.lowerBound]))
                found.append(
                    "\(shown): a leftover recording of \(cassette), kept aside by MOCKSERVER_RECORD=all when its test failed or was "
                        + "stopped; compare it with \(cassette), then move it over that file or delete it")
            }
        }
        return found
    }
}
