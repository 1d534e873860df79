import ServiceReplayShared

extension MatchRules {
    /// One `ignoreBody` entry read: the method it is limited to (`nil` for any) and its path glob.
    struct WholeBodyRule: Sendable, Hashable {
        let method: String?
        let glob: String
    }

    /// The first entry of the body rules that cannot take effect, with the key it is under and one sentence;
    /// `nil` when every one can. Cassette files are checked as they are read, a server's rules when it is made.
    var bodyRuleProblem: (key: String, reason: String)? {
        for (position, text) in ignoredBodyPaths.enumerated() {
            if case .failure(let error) = Self.parseJSONPath(text) { return ("ignoreBodyPaths[\(position)]", error.reason) }
        }
        for (position, name) in ignoredXMLElements.enumerated() where !Self.isXMLName(name) {
            return (
                "ignoreXMLElements[\(position)]",
                "\(JSONWriter.quoted(name)) is not an XML element name; give a local name such as \"Latest\", without < > or a prefix"
            )
        }
        for (position, text) in ignoredBodies.enumerated() {
            if case .failure(let error) = Self.parseWholeBodyRule(text) { return ("ignoreBody[\(position)]", error.reason) }
        }
        return nil
    }

    /// The JSON paths of ``ignoredBodyPaths`` that parse (all of them once ``bodyRuleProblem`` is `nil`).
    var parsedBodyPaths: [JSONPath] {
        ignoredBodyPaths.compactMap { try? Self.parseJSONPath($0).get() }
    }

    /// The entries of ``ignoredBodies`` that parse (all of them once ``bodyRuleProblem`` is `nil`).
    var parsedWholeBodyRules: [WholeBodyRule] {
        ignoredBodies.compactMap { try? Self.parseWholeBodyRule($0).get() }
    }

    /// The reason a rule does not parse, as a thrown value.
    struct RuleError: Error {
        let reason: String
    }

    /// `$`, then `.name`, `[N]`, `[*]` or `["name"]` steps: `$.items[*].id`.
    static func parseJSONPath(_ text: String) -> Result<JSONPath, RuleError> {
        let example = "such as $.idempotencyKey or $.items[*].id"
        let scalars = Array(text.unicodeScalars)
        guard scalars.first == "$" else {
            return .failure(RuleError(reason: "\(JSONWriter.quoted(text)) is not a JSON path: it must start with $, \(example)"))
        }
        var components: [JSONPath.Component] = []
        var position = 1
        func invalid(_ what: String) -> Result<JSONPath, RuleError> {
            .failure(RuleError(reason: "\(JSONWriter.quoted(text)) is not a JSON path: \(what) at character \(position + 1); write it \(example)"))
        }
        while position < scalars.count {
            if scalars[position] == "." {
                position += 1
                let start = position
                while position < scalars.count, scalars[position] != ".", scalars[position] != "[" { position += 1 }
                guard position > start else { return invalid("an empty name") }
                components.append(.key(String(String.UnicodeScalarView(scalars[start..<position]))))
            } else if scalars[position] == "[" {
                guard let close = scalars[position...].firstIndex(of: "]") else { return invalid("a [ without ]") }
                let inside = String(String.UnicodeScalarView(scalars[(position + 1)..<close]))
                if inside == "*" {
                    components.append(.anyIndex)
                } else if let index = Int(inside), index >= 0 {
                    components.append(.index(index))
                } else if inside.count >= 2, let quote = inside.first, quote == "\"" || quote == "'", inside.last == quote {
                    components.append(.key(String(inside.dropFirst().dropLast())))
                } else {
                    return invalid("[\(inside)] (neither an index, * nor a quoted name)")
                }
                position = close + 1
            } else {
                return invalid("\(JSONWriter.quoted(String(scalars[position]))) where . or [ belongs")
            }
        }
        guard !components.isEmpty else {
            return .failure(RuleError(reason: "\"$\" would ignore the whole body; use ignoreBody with the request's method and path"))
        }
        return .success(JSONPath(components: components))
    }

    /// `METHOD /glob` or `/glob`.
    static func parseWholeBodyRule(_ text: String) -> Result<WholeBodyRule, RuleError> {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        let usage = "write it as METHOD /path-glob or /path-glob, such as \"PUT /container/*\""
        switch words.count {
        case 1 where words[0].hasPrefix("/"):
            return .success(WholeBodyRule(method: nil, glob: String(words[0])))
        case 2 where words[1].hasPrefix("/") && words[0].allSatisfy({ $0.isLetter }):
            return .success(WholeBodyRule(method: words[0].uppercased(), glob: String(words[1])))
        default:
            return .failure(RuleError(reason: "\(JSONWriter.quoted(text)) names no request; \(usage)"))
        }
    }

    /// A local XML name: a letter or `_` first, then letters, digits, `_`, `-` and `.` (no `:` prefix).
    static func isXMLName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0) }
    }
}
