import Foundation

/// The checks behind `recorder lint`, usable from tests as well (`#expect(linter.findings(inFileAt: url).isEmpty)`):
///
/// - **format**: the file must load as a cassette; the load error is the finding (one per file, since
///   loading stops at the first problem).
/// - **duplicate**: an interaction whose request is identical to an earlier one under the cassette's own
///   match rules, whose response (or failure) is identical too, and whose removal changes nothing replay
///   serves (see ``duplicates(in:)``). A repeated request with different responses is a sequence, not a
///   duplicate.
/// - **secret**: whatever ``SecretScanner`` reports in a request, a response or an error template.
/// - **unreachable upstream**: a recorded interaction holding a refused connection (see
///   ``unreachableUpstream(_:in:)``).
package struct CassetteLinter: Sendable {
    /// The scanner for leftover secrets.
    var scanner: SecretScanner

    /// A linter scanning with `rules` (default: ``RedactionRules/default``).
    package init(rules: RedactionRules = .default) {
        scanner = SecretScanner(rules: rules)
    }

    /// Every finding for the cassette file at `url`: its load error, or its duplicates and secrets. Never
    /// throws: an unreadable file is a finding too.
    package func findings(inFileAt url: URL) -> [LintFinding] {
        do {
            return findings(in: try Cassette.load(from: url), file: url.relativePath)
        } catch {
            return [LintFinding(kind: .format, description: error.description)]
        }
    }

    /// Every duplicate and secret in a loaded cassette, interactions in order (duplicates first within one),
    /// then error templates by name; `file` starts each sentence.
    package func findings(in cassette: Cassette, file: String) -> [LintFinding] {
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
            var secrets = scanner.scan(interaction.request.httpRequest)
            if let response = interaction.response {
                secrets += scanner.scan(HTTPResponse(status: response.status, headers: response.headers, body: response.body.data))
            }
            findings += secrets.map { LintFinding(kind: .secret, description: "\(place): \($0)") }
        }
        for name in cassette.errorTemplates.keys.sorted() {
            let template = cassette.errorTemplates[name]!
            let secrets = scanner.scan(HTTPResponse(status: template.status, headers: template.headers, body: template.body.data))
            findings += secrets.map { LintFinding(kind: .secret, description: "\(file): error template \(name): \($0)") }
        }
        return findings
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
        /// A value that looks like a credential that was not redacted.
        case secret
        /// A recorded interaction holding a refused connection: the upstream could not be reached when it was
        /// recorded, and replay resets the connection every time.
        case unreachableUpstream
    }

    /// Which check found it.
    package let kind: Kind
    /// The sentence, starting with the file: `Recordings/github/users.json: interaction 2: request header
    /// Authorization: credential header is not redacted`.
    package let description: String

    /// Creates a finding from its kind and its full sentence.
    package init(kind: Kind, description: String) {
        self.kind = kind
        self.description = description
    }
}
