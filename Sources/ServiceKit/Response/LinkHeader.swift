import Foundation

/// Reads `Link` headers (RFC 8288): `<https://api.github.com/users?since=46>; rel="next", <...>; rel="first"`.
enum LinkHeader {
    /// Targets by relation type (lower-cased). A `rel` naming several types (`rel="next last"`) files the
    /// target under each; the first target of a relation wins; targets that are not URLs (URI templates
    /// such as `{?since}`) are skipped.
    static func targets(in headerValues: [String], relativeTo base: URL?) -> [String: URL] {
        var result: [String: URL] = [:]
        for value in headerValues {
            for link in links(in: value) {
                // URI templates ({?since}) are not URLs; Foundation would percent-encode the braces and accept them.
                guard !link.target.contains(where: { $0 == "{" || $0 == "}" }),
                    let url = URL(string: link.target, relativeTo: base)?.absoluteURL
                else { continue }
                for relation in link.relations where result[relation] == nil {
                    result[relation] = url
                }
            }
        }
        return result
    }

    private struct Link {
        var target: String
        var relations: [String]
    }

    /// Splits on commas outside `<...>` and quotes, so commas inside targets or quoted parameters are safe.
    private static func links(in value: String) -> [Link] {
        var links: [Link] = []
        var current = ""
        var inTarget = false
        var inQuotes = false
        for character in value {
            switch character {
            case "<" where !inQuotes: inTarget = true
            case ">" where !inQuotes: inTarget = false
            case "\"" where !inTarget: inQuotes.toggle()
            case "," where !inTarget && !inQuotes:
                links += link(from: current).map { [$0] } ?? []
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        links += link(from: current).map { [$0] } ?? []
        return links
    }

    private static func link(from text: String) -> Link? {
        guard let open = text.firstIndex(of: "<"), let close = text[open...].firstIndex(of: ">") else { return nil }
        let target = String(text[text.index(after: open)..<close])
        var relations: [String] = []
        for parameter in text[text.index(after: close)...].split(separator: ";") {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel" else { continue }
            let types = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            relations += types.split(separator: " ").map { $0.lowercased() }
        }
        return Link(target: target, relations: relations)
    }
}
