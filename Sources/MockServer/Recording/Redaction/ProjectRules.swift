import Foundation
import ServiceReplayShared

/// A project's own rules on secrets, kept beside its cassettes in `.servicereplay.json`, so that `recorder lint`,
/// `recorder redact`, `recorder capture` and every recording a test makes apply the same ones, and a
/// re-recording keeps them:
///
/// ```json
/// {"allow": ["UploadId", "$.meta.revision", "AKIAIOSFODNN7EXAMPLE"], "redact": ["X-Custom-Key", "pin", "$.user.pin"]}
/// ```
///
/// - `allow`: entries that are no secret, whatever the built-in rules say. Each is compared with names (of
///   headers, query and form fields, JSON keys and URL parameters, ignoring case, `-` and `_`), with JSON paths
///   (an entry starting `$.` or `$[`, as `recorder lint` prints them; `[*]` stands for any index) and with
///   whole values.
/// - `redact`: names and JSON paths whose values are secrets, on top of the built-in rules.
///
/// Both are optional lists of non-empty strings; any other key, an entry in both lists, or a file that is no
/// JSON object is an error naming the file and what is wrong. An entry in `redact` wins over everything.
package struct ProjectRules: Sendable, Hashable {
    /// The file's name: `.servicereplay.json`. Hidden, so no command takes it for a cassette.
    package static let fileName = ".servicereplay.json"

    /// Names, JSON paths and values that are no secret.
    package let allow: [String]
    /// Names and JSON paths whose values are secrets.
    package let redact: [String]

    /// Rules with these lists.
    package init(allow: [String] = [], redact: [String] = []) {
        self.allow = allow
        self.redact = redact
    }

    /// Whether `entry` is a JSON path (`$`, `$.pin`, `$["x-key"]`, `$.items[*].id`) rather than a name: a name may
    /// start with `$` too (Microsoft Graph's `$skiptoken`).
    static func isPath(_ entry: String) -> Bool {
        entry == "$" || entry.hasPrefix("$.") || entry.hasPrefix("$[")
    }

    /// The rules file that governs the cassette at `cassette`: `.servicereplay.json` in `root` when one is given
    /// (the recordings folder of a test), else in the nearest folder named `Recordings` at or above the
    /// cassette's, else in the cassette's own folder. It may not exist. A relative `cassette` gives a URL
    /// relative to the same base when the file is below it, so that messages name it as the user would.
    package static func file(for cassette: URL, root: URL?) -> URL {
        if let root { return root.appendingPathComponent(fileName, isDirectory: false) }
        let own = cassette.absoluteURL.standardizedFileURL.deletingLastPathComponent()
        var folder = own
        var found: URL?
        for _ in 0..<256 {
            if folder.lastPathComponent == "Recordings" {
                found = folder
                break
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        let absolute = (found ?? own).appendingPathComponent(fileName, isDirectory: false)
        guard let base = cassette.baseURL?.absoluteURL.standardizedFileURL.path else { return absolute }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        guard absolute.path.hasPrefix(prefix) else { return absolute }
        return URL(fileURLWithPath: String(absolute.path.dropFirst(prefix.count)), isDirectory: false, relativeTo: cassette.baseURL)
    }

    /// The rules of the file that governs `cassette` (see ``file(for:root:)``), or `nil` when there is none.
    /// - Throws: ``MockServerError`` as ``init(contentsOf:)`` does.
    package static func governing(_ cassette: URL, root: URL?) throws(MockServerError) -> ProjectRules? {
        let url = file(for: cassette, root: root)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try ProjectRules(contentsOf: url)
    }

    /// Reads the rules file at `url`; messages name it as `url.relativePath`.
    /// - Throws: ``MockServerError``: `fileSystem` when it cannot be read, `syntax` when it is no JSON, and
    ///   `invalidField` naming the field for anything else wrong.
    package init(contentsOf url: URL) throws(MockServerError) {
        let source = url.relativePath
        let data = try Cassette.contents(of: url)
        let document: CassetteJSON
        do throws(JSONParseError) {
            document = try CassetteJSON(parsing: data)
        } catch {
            throw MockServerError(syntax: error, file: source)
        }
        let reader = try CassetteFieldReader(document, file: source, interaction: nil, path: "")
        try reader.rejectUnknown(["allow", "redact"])
        let allow = try Self.entries("allow", of: reader)
        let redact = try Self.entries("redact", of: reader)
        let allowedNames = Set(allow.map(RedactionRules.normalisedField))
        if let index = redact.firstIndex(where: { allowedNames.contains(RedactionRules.normalisedField($0)) }) {
            throw reader.failure("redact[\(index)]", "\"\(redact[index])\" is in allow too; a name is either a secret or not")
        }
        self.init(allow: allow, redact: redact)
    }

    /// The strings of the list `key`, empty when it is absent.
    private static func entries(_ key: String, of reader: CassetteFieldReader) throws(MockServerError) -> [String] {
        var entries: [String] = []
        for (index, element) in (try reader.optionalArray(key) ?? []).enumerated() {
            guard case .string(let entry) = element else {
                throw reader.failure("\(key)[\(index)]", "expected a string, found \(CassetteFieldReader.describe(element))")
            }
            guard !entry.isEmpty else { throw reader.failure("\(key)[\(index)]", "an empty entry names nothing; remove it") }
            entries.append(entry)
        }
        return entries
    }
}
