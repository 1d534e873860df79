/// Why a value is a secret: the answer of the one verdict that recording, `recorder redact` and `recorder lint`
/// share (see ``RedactionRules``). Its ``reason`` is what `lint` prints, and ``allowEntry`` what a project adds
/// to `allow` in its rules file when the value is no secret after all.
package struct SecretRule: Sendable, Hashable {
    /// Where a name that makes values secret comes from.
    package enum Source: Sendable, Hashable {
        /// The built-in rules: ``RedactionRules/defaultHeaders``, ``RedactionRules/defaultFields`` and the
        /// name patterns that widen them.
        case builtIn
        /// `redact` in the project's rules file (see ``ProjectRules``).
        case rulesFile
        /// `--redact-header` or `--redact-field` on the command line.
        case commandLine
        /// ``RedactionRules/adding(headers:fields:)`` or ``RedactionRules/init(headers:fields:)`` in code.
        case code
    }

    /// The closed set of rules.
    package enum Kind: Sendable, Hashable {
        /// A header, query or form field, JSON key or URL parameter with a secret's name (as written).
        case name(String, Source, urlParameter: Bool)
        /// A JSON path the project's rules file names in `redact`.
        case path(String)
        /// A value that looks like a credential on its own.
        case format(CredentialFormat)
        /// A value the request carried as a secret, repeated in the response; `of` is where the request held it.
        case echo(of: String)
    }

    /// The rule.
    package let kind: Kind
    /// The name, else the JSON path, that `allow` takes to say that this value is no secret; `nil` when only
    /// the value itself would do (a word in free text), or when allowing is not how to undo the rule.
    package let allowEntry: String?

    /// Creates a rule.
    init(_ kind: Kind, allowEntry: String?) {
        self.kind = kind
        self.allowEntry = allowEntry
    }

    /// Whether the rule was given on purpose (a name or path named in a rules file, on the command line or in
    /// code), which `allow` does not override.
    var isGivenOnPurpose: Bool {
        switch kind {
        case .name(_, let source, _): source != .builtIn
        case .path: true
        case .format, .echo: false
        }
    }

    /// `looks like a credential (name `token`)`, `looks like a credential (a GitHub token)`, `listed as a secret
    /// (name `pin`)`, `repeats a secret of the request (request query token)`.
    package var reason: String {
        switch kind {
        case .name(let name, let source, let urlParameter):
            let what = "\(urlParameter ? "URL parameter" : "name") `\(name)`"
            switch source {
            case .builtIn: return "looks like a credential (\(what))"
            case .rulesFile: return "listed as a secret (\(what))"
            case .commandLine: return "listed as a secret by --redact-header or --redact-field (\(what))"
            case .code: return "listed as a secret by the rules given (\(what))"
            }
        case .path(let path):
            return "listed as a secret (path `\(path)`)"
        case .format(let format):
            return "looks like a credential (\(format))"
        case .echo(let place):
            return "repeats a secret of the request (\(place))"
        }
    }

    /// What to do when the value is no secret, naming the rules file `file`: `if it is not, add "token" to
    /// allow in Recordings/.servicereplay.json`; `nil` for a rule from the command line or code (drop the
    /// option) and for an echo (the request's own finding says it).
    package func advice(rulesFile file: String) -> String? {
        switch kind {
        case .name(let name, .rulesFile, _):
            return "if it is not, remove \"\(name)\" from redact in \(file)"
        case .path(let path):
            return "if it is not, remove \"\(path)\" from redact in \(file)"
        case .name(_, .commandLine, _), .name(_, .code, _), .echo:
            return nil
        case .name, .format:
            return "if it is not, add \(allowEntry.map { "\"\($0)\"" } ?? "the value") to allow in \(file)"
        }
    }
}
