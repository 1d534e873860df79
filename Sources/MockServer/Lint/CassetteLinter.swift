import Foundation

/// The checks behind `recorder lint`, usable from tests as well (`#expect(linter.findings(inFileAt: url).isEmpty)`):
///
/// - **format**: the file must load as a cassette; the load error is the finding (one per file, since
///   loading stops at the first problem).
/// - **duplicate**: an interaction whose request is identical to an earlier one under the cassette's own
///   match rules, whose response (or failure) is identical too, and whose removal changes nothing replay
///   serves (see ``duplicates(in:)``). A repeated request with different responses is a sequence, not a
///   duplicate.
/// - **secret**: a value that redaction would replace (see ``RedactionRules``): the same verdict as
///   `recorder redact` and recording give, so what lint flags, redact replaces. Each sentence names the rule
///   and, when the value may be no secret, what to add to the project's rules file (`.servicereplay.json`).
/// - **unreachable upstream**: a recorded interaction holding a refused connection (see
///   ``unreachableUpstream(_:in:)``).
package struct CassetteLinter: Sendable {
    /// The rules secrets are judged by, before a project's own rules file is added.
    var rules: RedactionRules

    /// A linter judging secrets by `rules` (default: ``RedactionRules/default``) and each cassette's project
    /// rules file.
    package init(rules: RedactionRules = .default) {
        self.rules = rules
    }

    /// Every finding for the cassette file at `url`, judged with the rules file that governs it (see
    /// ``ProjectRules/file(for:root:)``): its load error or the rules file's, or its duplicates and secrets.
    /// Never throws: an unreadable file is a finding too.
    package func findings(inFileAt url: URL) -> [LintFinding] {
        do {
            let rulesFile = ProjectRules.file(for: url, root: nil)
            let project = try ProjectRules.governing(url, root: nil)
            let cassette = try Cassette.load(from: url)
            let rules = project.map(self.rules.adding) ?? self.rules
            return CassetteLinter(rules: rules).findings(in: cassette, file: url.relativePath, rulesFile: rulesFile.relativePath)
        } catch {
            return [LintFinding(kind: .format, description: error.description)]
        }
    }

    /// Every duplicate and secret in a loaded cassette, interactions in order (duplicates first within one),
    /// then error templates by name; `file` starts each sentence, and `rulesFile` is where a finding says to
    /// allow a value that is no secret.
    package func findings(in cassette: Cassette, file: String, rulesFile: String = ProjectRules.fileName) -> [LintFinding] {
        var duplicateOf: [Int: Int] = [:]
        for duplicate in CassetteLinter.duplicates(in: cassette) {
            duplicateOf[duplicate.index] = duplicate.original
        }
        var findings: [LintFinding] = []
        for (index, interaction) in cassette.interactions.enumerated() {
            let place = "\(file): interaction \(index)"
            if let original = duplicateOf[index] {
                findings.append(
                    LintFinding(
                        kind: .duplicate,
                        description:
                            "\(place): duplicates interaction \(original) (same request under the cassette's match rules, same response); replay never needs it"
                    ))
            }
            if let sentence = Self.unreachableUpstream(interaction, in: cassette) {
                findings.append(LintFinding(kind: .unreachableUpstream, description: "\(place): \(sentence)"))
            }
            findings += rules.findings(in: interaction).map { Self.secret($0, at: place, rulesFile: rulesFile) }
        }
        for name in cassette.errorTemplates.keys.sorted() {
            let place = "\(file): error template \(name)"
            findings += rules.findings(in: cassette.errorTemplates[name]!).map { Self.secret($0, at: place, rulesFile: rulesFile) }
        }
        return findings
    }

    /// `PLACE: LOCATION: REASON; if it is not, add "NAME" to allow in RULESFILE`.
    private static func secret(_ finding: SecretFinding, at place: String, rulesFile: String) -> LintFinding {
        let advice = finding.rule.advice(rulesFile: rulesFile).map { "; " + $0 } ?? ""
        return LintFinding(kind: .secret, description: "\(place): \(finding)\(advice)")
    }

    /// Why `interaction` looks recorded while the upstream could not be reached, or `nil`: it holds a refused
    /// connection (which is also how an unknown host or a failed TLS agreement is recorded), and both it
    /// and its cassette say they were recorded, the interaction by its `recordedAt`, which a recording always
    /// writes. A cassette marked `"origin": "hand-written"`, or an interaction without `recordedAt`, holds its
    /// refusal on purpose. (Recording keeps no such interaction now; older recordings may.)
    static func unreachableUpstream(_ interaction: Interaction, in cassette: Cassette) -> String? {
        guard cassette.origin == .recorded, interaction.recordedAt != nil, let failure = interaction.failure, failure.kind == .refused else {
            return nil
        }
        let why = failure.message.map { " (\($0))" } ?? ""
        return "recorded while the upstream could not be reached\(why), so replay resets the connection every time; "
            + "re-record \(cassette.name) with the upstream up: `\(RecordVariables.record)=all swift test --filter TEST`, TEST the test "
            + "that records it (or remove the interaction, or mark the cassette \"origin\": \"hand-written\" if the refusal is meant)"
    }
}

/// One problem ``CassetteLinter`` found in a cassette file; its ``description`` is one line naming the file,
/// the interaction (or error template) and the place.
package struct LintFinding: Sendable, Hashable, CustomStringConvertible {
    /// The family of problem. A closed set: these are the checks `recorder lint` runs.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The file does not load as a cassette (syntax, unknown or ill-typed field, unreadable file).
        case format
        /// An interaction that replay never needs: same request and same response as an earlier one.
        case duplicate
        /// A value that redaction would replace: a secret left in the cassette.
        case secret
        /// A recorded interaction holding a refused connection: the upstream could not be reached when it was
        /// recorded, and replay resets the connection every time.
        case unreachableUpstream
    }

    /// Which check found it.
    package let kind: Kind
    /// The sentence, starting with the file: `Recordings/github/users.json: interaction 2: request header
    /// Authorization: looks like a credential (name `Authorization`); if it is not, add "Authorization" to allow
    /// in Recordings/.servicereplay.json`.
    package let description: String

    /// Creates a finding from its kind and its full sentence.
    package init(kind: Kind, description: String) {
        self.kind = kind
        self.description = description
    }
}
