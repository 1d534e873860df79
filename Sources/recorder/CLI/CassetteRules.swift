import Foundation
import MockServer

/// The rules a cassette file is redacted and linted by: the built-in ones, the command line's
/// (`--redact-header`, `--redact-field`) and the project's rules file that governs the file (see
/// ``ProjectRules/file(for:root:)``), each rules file read once.
struct CassetteRules {
    /// The built-in rules and the command line's.
    let base: RedactionRules
    /// The rules files read so far, by absolute path; `nil` for one that does not exist.
    private var read: [String: ProjectRules?] = [:]

    /// The built-in rules plus `--redact-header` and `--redact-field` of `parsed`.
    init(_ parsed: Arguments) {
        base = RedactionRules.default.adding(headers: parsed.all("redact-header"), fields: parsed.all("redact-field"), source: .commandLine)
    }

    /// The rules for the cassette at `url`, and its rules file named as messages name it (relative when `url` is).
    /// - Throws: ``RecorderError/failure(_:)`` with the rules file's sentence when it cannot be read or is malformed.
    mutating func rules(for url: URL) throws(RecorderError) -> (rules: RedactionRules, file: String) {
        let file = ProjectRules.file(for: url, root: nil)
        let key = file.absoluteURL.standardizedFileURL.path
        let project: ProjectRules?
        if let known = read[key] {
            project = known
        } else {
            do {
                project = try ProjectRules.governing(url, root: nil)
            } catch {
                throw .failure(error.description)
            }
            read[key] = project
        }
        return (project.map(base.adding) ?? base, file.relativePath)
    }
}
