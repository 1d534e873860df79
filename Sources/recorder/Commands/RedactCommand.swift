import Foundation
import MockServer

/// `recorder redact PATH...`.
enum RedactCommand: Command {
    static let help = CommandHelp(
        name: "redact",
        summary: "apply the redaction rules to existing cassettes, in place",
        usage: "recorder redact PATH... [--redact-header NAME]... [--redact-field NAME]...",
        description: """
            Replaces secrets in the requests, responses and error templates of every cassette named (and every
            *.json file under the folders named) by <redacted>, the placeholder that still matches on replay.
            The defaults cover Authorization, Proxy-Authorization, Cookie, Set-Cookie and API-key headers, and
            access_token, token, api_key, password, client_secret, presigned URLs' X-Amz-Signature and
            similar query, form and JSON fields, also as query parameters of the URLs that headers (a
            Location), text and JSON bodies and stream events hold; base64 bodies are left alone. A file
            is rewritten, atomically, only when something changed; each file gets a line saying what was
            replaced or that it was already clean. A file that does not load is reported and left untouched,
            and the exit status is then 1. Running it twice changes nothing the second time. It replaces exactly
            what `recorder lint` flags: values of a credential's format (JWTs, known token formats, long
            high-entropy request header values) too, but not identifiers and cursors such as UploadId, NextContinuationToken,
            _token or cursor.

            Reads the project's rules from .servicereplay.json in the cassettes' Recordings folder (or in a
            cassette's own folder outside one), as lint and every recording do, so that a re-recording keeps
            them: {"allow": ["UploadId", "$.meta.revision"], "redact": ["X-Custom-Key", "pin"]}. allow lists
            names, JSON paths ($.a.b, [*] for any index) or whole values that are no secret; redact lists names
            and JSON paths that are. A malformed file, or an unknown key in it, stops the command with one
            sentence and status 1, before any cassette is touched.
            """,
        arguments: [.init(spelling: "PATH", text: "Cassette files or folders.")],
        options: [
            .init(spelling: "--redact-header NAME", text: "Also redact this header (repeatable; default: the built-in list)."),
            .init(spelling: "--redact-field NAME", text: "Also redact this query, form or JSON field (repeatable)."),
        ],
        examples: ["recorder redact Recordings/", "recorder redact Recordings/login/login.json --redact-field pin"]
    )

    static func run(_ arguments: [String], console: Console) throws(RecorderError) -> Int32 {
        let parsed = try Arguments(arguments, options: ["redact-header", "redact-field"], flags: [], command: "redact")
        try parsed.expectPositionals(1...Int.max, what: "at least one cassette or folder", command: "redact")
        var rules = CassetteRules(parsed)
        let items = CassettePaths.expand(parsed.positionals)
        // Every rules file is read before any cassette is touched, so that a malformed one stops the command whole.
        for case .file(let url) in items { _ = try rules.rules(for: url) }
        var failed = false
        for item in items {
            switch item {
            case .missing(_, let sentence):
                console.error(sentence)
                failed = true
            case .file(let url):
                let judged = try rules.rules(for: url).rules
                do {
                    var cassette = try Cassette.load(from: url)
                    let count = judged.redact(&cassette)
                    guard !count.isEmpty else {
                        console.print("\(url.relativePath): already clean")
                        continue
                    }
                    try cassette.save(to: url, overwrite: true)
                    console.print("\(url.relativePath): redacted \(count)")
                } catch {
                    console.error(error.description)
                    failed = true
                }
            }
        }
        return failed ? 1 : 0
    }
}
