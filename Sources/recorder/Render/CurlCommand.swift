import Foundation
import MockServer

/// The curl command line that sends a recorded request to the cassette's upstream, as `recorder show
/// --curl` prints it.
///
/// - The URL is the upstream plus the target, with redaction placeholders percent-encoded (`%3Credacted%3E`);
///   `--globoff` is added when the URL holds `[`, `]`, `{` or `}`, which curl would otherwise expand.
/// - Headers keep their order and repeats; `Host`, `Content-Length` and `Transfer-Encoding` are left to curl,
///   and a recorded `Accept-Encoding` becomes `--compressed` so that curl decodes what it asks for.
///   Placeholders in headers and bodies stay as they are, to show where a secret goes.
/// - A text body (JSON included) is passed with `--data-raw`. Any other body is written first from base64
///   by a here-document, then sent with `--data-binary @body.bin`.
/// - The method is `--request METHOD` unless curl's default already is it (GET without a body, POST with
///   one); HEAD is `--head`.
enum CurlCommand {
    /// The file a binary body is decoded into.
    static let bodyFile = "body.bin"

    static func render(_ request: RecordedRequest, upstream: String) -> String {
        let base = upstream.hasSuffix("/") ? String(upstream.dropLast()) : upstream
        let url = (base + request.target).replacingOccurrences(of: Cassette.redactionPlaceholder, with: Cassette.urlRedactionPlaceholder)
        var options: [String] = []
        var prelude: [String] = []
        let body = request.body.data
        let textBody = textual(request.body)
        switch request.method {
        case "HEAD" where body.isEmpty: options.append("--head")
        case "GET" where body.isEmpty, "POST" where !body.isEmpty: break
        default: options.append("--request \(ShellQuote.word(request.method))")
        }
        if url.contains(where: { "[]{}".contains($0) }) { options.append("--globoff") }
        var compressed = false
        for header in request.headers.lines {
            switch header.name.lowercased() {
            case "host", "content-length", "transfer-encoding":
                continue
            case "accept-encoding":
                compressed = true
            default:
                // `Name;` is curl's spelling of a header with an empty value (`Name:` would remove it).
                let line = header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"
                options.append("--header \(ShellQuote.quote(line))")
            }
        }
        if compressed { options.append("--compressed") }
        if let textBody {
            options.append("--data-raw \(ShellQuote.quote(textBody))")
        } else if !body.isEmpty {
            let type = request.headers["Content-Type"].map { " (\($0))" } ?? ""
            prelude = ["# The request body is \(counted(body.count, "byte")) of binary data\(type), kept here as base64;"]
            prelude.append("# this writes it to \(bodyFile) for curl to send.")
            prelude.append("base64 -d > \(bodyFile) <<'END_OF_BODY'")
            prelude += body.base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed]).split(separator: "\n").map(String.init)
            prelude.append("END_OF_BODY")
            options.append("--data-binary @\(bodyFile)")
        }
        let command = (["curl " + ShellQuote.quote(url)] + options).joined(separator: " \\\n  ")
        return (prelude + [command]).joined(separator: "\n")
    }

    /// The body as text when it can be typed: JSON and text without control characters other than tab,
    /// newline and carriage return (a shell word cannot hold NUL, and the rest would be invisible).
    private static func textual(_ body: RecordedBody) -> String? {
        let text: String
        switch body.form {
        case .json, .text: text = String(decoding: body.data, as: UTF8.self)
        case .empty, .binary, .stream: return nil
        }
        let typeable = text.unicodeScalars.allSatisfy { $0 == "\t" || $0 == "\n" || $0 == "\r" || ($0.value >= 0x20 && $0.value != 0x7F) }
        return typeable ? text : nil
    }
}
