/// The `type/subtype` of a `Content-Type` value, lower-cased, with its parameters, parsed once.
struct MediaType: Sendable, Hashable {
    /// `type/subtype` in lower case, or `""` when there was no content type.
    let essence: String
    /// Parameters by lower-cased name, quotes removed (`boundary`, `charset`).
    let parameters: [String: String]

    init(_ contentType: String?) {
        guard let contentType else {
            essence = ""
            parameters = [:]
            return
        }
        var pieces = contentType.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
        essence = pieces.next().map { $0.trimmingWhitespace().lowercased() } ?? ""
        var parameters: [String: String] = [:]
        while let piece = pieces.next() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let name = piece[..<equals].trimmingWhitespace().lowercased()
            var value = piece[piece.index(after: equals)...].trimmingWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            parameters[name] = value
        }
        self.parameters = parameters
    }

    var isJSON: Bool {
        essence == "application/json" || essence == "text/json" || essence.hasSuffix("+json")
    }

    var isFormURLEncoded: Bool { essence == "application/x-www-form-urlencoded" }

    var isMultipartFormData: Bool { essence == "multipart/form-data" }

    var isTextual: Bool {
        if essence.hasPrefix("text/") || essence.hasSuffix("+xml") || essence.hasSuffix("+yaml") { return true }
        switch essence {
        case "application/xml", "application/javascript", "application/x-javascript", "application/ecmascript",
             "application/x-www-form-urlencoded", "application/graphql", "application/yaml", "application/x-yaml",
             "application/csv", "application/x-ndjson", "application/jsonl", "application/sql":
            return true
        default:
            return false
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })!
        return String(self[first...last])
    }
}
