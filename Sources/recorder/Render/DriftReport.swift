import Foundation
import MockServer

/// What `recorder drift` found, rendered as text (one line per change under its interaction, then a summary
/// line), as JSON for machines, or as JUnit XML (one test case per interaction) for CI.
struct DriftReport {
    /// What became of one interaction.
    enum Verdict {
        /// Sent and compared; no change when empty.
        case checked([DriftChange])
        /// Not sent, for the reason given.
        case skipped(String)
        /// Sent, but the upstream failed below HTTP, as the message says. Breaking.
        case unreachable(String)
    }

    struct Entry {
        let index: Int
        let method: String
        let target: String
        /// The request's GraphQL operations, named in the title; empty for any other request.
        var operations: [String] = []
        let outcome: Verdict

        /// The changes, an unreachable upstream being one breaking change.
        var changes: [DriftChange] {
            switch outcome {
            case .checked(let changes): changes
            case .skipped: []
            case .unreachable(let message): [.unreachable(message)]
            }
        }

        var title: String { "#\(index) \(method) \(target)" + (operations.isEmpty ? "" : " (GraphQL \(operations.joined(separator: ", ")))") }
    }

    /// One cassette's interactions.
    struct Section {
        let file: String
        let name: String
        let upstream: String
        var entries: [Entry] = []
    }

    /// Whether additive changes count as breaking.
    let strict: Bool
    var sections: [Section] = []

    private var entries: [Entry] { sections.flatMap(\.entries) }
    private var changes: [DriftChange] { entries.flatMap(\.changes) }
    private var breaking: Int { changes.filter { $0.severity == .breaking }.count }
    private var additive: Int { changes.filter { $0.severity == .additive }.count }
    private var skipped: Int { entries.filter { if case .skipped = $0.outcome { true } else { false } }.count }
    private var checked: Int { entries.count - skipped }

    /// Whether the command fails: something breaking, or anything at all under `--strict`.
    var failed: Bool { breaking > 0 || (strict && additive > 0) }

    /// When every request sent failed to connect, the one sentence that says so instead of a report.
    var unreachableSentence: String? {
        let sent = entries.filter { if case .skipped = $0.outcome { false } else { true } }
        guard !sent.isEmpty, sent.allSatisfy({ if case .unreachable = $0.outcome { true } else { false } }),
            case .unreachable(let message) = sent[0].outcome
        else { return nil }
        let upstreams = Set(sections.filter { !$0.entries.isEmpty }.map(\.upstream)).sorted().joined(separator: ", ")
        return "cannot reach \(upstreams), so nothing was compared: \(message)"
    }

    /// The summary line.
    var summary: String {
        let skippedText = skipped > 0 ? ", \(skipped) skipped" : ""
        guard breaking + additive > 0 else {
            return "No drift: \(counted(checked, "interaction")) checked\(skippedText)."
        }
        let strictText = strict && additive > 0 ? " (--strict: additive changes fail)" : ""
        return "Drift: \(counted(checked, "interaction")) checked, \(counted(breaking, "breaking change")), "
            + "\(counted(additive, "additive change"))\(skippedText).\(strictText)"
    }

    /// The readable report: per cassette its file and upstream, per interaction `#INDEX METHOD TARGET`
    /// followed by `: no drift`, `: skipped: REASON`, or one indented line per change; then the summary.
    var text: String {
        var lines: [String] = []
        for section in sections {
            lines.append("\(section.file) against \(section.upstream)")
            for entry in section.entries {
                switch entry.outcome {
                case .skipped(let reason): lines.append("\(entry.title): skipped: \(reason)")
                case .checked(let changes) where changes.isEmpty: lines.append("\(entry.title): no drift")
                default: lines.append(entry.title); lines += entry.changes.map { "  " + $0.line }
                }
            }
        }
        lines.append(summary)
        return lines.joined(separator: "\n")
    }

    /// The report as one JSON document: `cassettes` (file, name, upstream, interactions with index, method,
    /// target, `result` of `unchanged`, `changed`, `skipped` or `unreachable`, `reason` and `changes`),
    /// `summary` (counts and the summary line) and `exitStatus`.
    var json: String {
        var cassettes: [CassetteJSON] = []
        for section in sections {
            var interactions: [CassetteJSON] = []
            for entry in section.entries {
                var object: CassetteJSON.Members = [
                    "index": .number(JSONNumber(entry.index)), "method": .string(entry.method),
                    "target": .string(entry.target),
                ]
                if !entry.operations.isEmpty { object["operations"] = .array(entry.operations.map(CassetteJSON.string)) }
                switch entry.outcome {
                case .checked(let changes): object["result"] = .string(changes.isEmpty ? "unchanged" : "changed")
                case .skipped(let reason): object["result"] = "skipped"; object["reason"] = .string(reason)
                case .unreachable(let message): object["result"] = "unreachable"; object["reason"] = .string(message)
                }
                object["changes"] = .array(
                    entry.changes.map { change in
                        [
                            "severity": .string(change.severity.rawValue), "place": .string(change.place), "recorded": .string(change.recorded),
                            "live": .string(change.live), "kind": .string(change.kind),
                        ]
                    })
                interactions.append(.object(object))
            }
            cassettes.append([
                "file": .string(section.file), "name": .string(section.name), "upstream": .string(section.upstream),
                "interactions": .array(interactions),
            ])
        }
        let document: CassetteJSON = [
            "cassettes": .array(cassettes),
            "summary": [
                "checked": .number(JSONNumber(checked)), "breaking": .number(JSONNumber(breaking)),
                "additive": .number(JSONNumber(additive)), "skipped": .number(JSONNumber(skipped)),
                "strict": .bool(strict), "line": .string(summary),
            ],
            "exitStatus": .number(JSONNumber(failed ? 1 : 0)),
        ]
        return String(decoding: document.serialized(pretty: true), as: UTF8.self)
    }

    /// The report as JUnit XML: a test suite per cassette, a test case per interaction (named by its title),
    /// failing with its breaking changes (every change under `--strict`), skipped with its reason, and its
    /// additive changes as warnings in `system-out`.
    var junit: String {
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
        let failures = entries.filter(fails).count
        lines.append("<testsuites name=\"recorder drift\" tests=\"\(entries.count)\" failures=\"\(failures)\" skipped=\"\(skipped)\">")
        for section in sections {
            let sectionFailures = section.entries.filter(fails).count
            let sectionSkipped = section.entries.filter { if case .skipped = $0.outcome { true } else { false } }.count
            lines.append(
                "  <testsuite name=\"\(xml(section.file))\" tests=\"\(section.entries.count)\" failures=\"\(sectionFailures)\" skipped=\"\(sectionSkipped)\">")
            for entry in section.entries {
                let open = "    <testcase classname=\"\(xml(section.name))\" name=\"\(xml(entry.title))\""
                let failing = entry.changes.filter { $0.severity == .breaking || strict }
                let warnings = entry.changes.filter { $0.severity == .additive && !strict }
                if case .skipped(let reason) = entry.outcome {
                    lines += [open + ">", "      <skipped message=\"\(xml(reason))\"/>", "    </testcase>"]
                } else if failing.isEmpty && warnings.isEmpty {
                    lines.append(open + "/>")
                } else {
                    lines.append(open + ">")
                    if !failing.isEmpty {
                        lines.append(
                            "      <failure message=\"\(xml(counted(failing.count, "breaking change")))\">"
                                + xml(failing.map(\.line).joined(separator: "\n")) + "</failure>")
                    }
                    if !warnings.isEmpty {
                        lines.append("      <system-out>" + xml(warnings.map { "warning: " + $0.line }.joined(separator: "\n")) + "</system-out>")
                    }
                    lines.append("    </testcase>")
                }
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    private func fails(_ entry: Entry) -> Bool {
        entry.changes.contains { $0.severity == .breaking || strict }
    }

    private func xml(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
