/// The `type/subtype` of a `Content-Type` value, lower-cased; parameters are read on demand. Parsed on UTF-8
/// bytes because it runs for every request with a body.
struct MediaType: Sendable, Hashable {
    /// `type/subtype` in lower case, or `""` when there was no content type.
    let essence: String
    /// Everything after the first `;`, unparsed.
    private let parameterText: Substring

    init(_ contentType: String?) {
        guard let contentType else {
            essence = ""
            parameterText = ""
            return
        }
        let utf8 = contentType.utf8
        let semicolon = utf8.firstIndex(of: UInt8(ascii: ";")) ?? utf8.endIndex
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.distance(from: utf8.startIndex, to: semicolon))
        for byte in utf8[..<semicolon] where byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") {
            bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
        }
        essence = String(decoding: bytes, as: UTF8.self)
        parameterText = semicolon == utf8.endIndex ? "" : contentType[utf8.index(after: semicolon)...]
    }

    /// The parameter `name` (case-insensitive), unquoted, such as `boundary` or `charset`; `nil` when absent.
    func parameter(_ name: String) -> String? {
        for piece in parameterText.split(separator: ";") {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            guard piece[..<equals].trimmingHTTPWhitespace().lowercased() == name.lowercased() else { continue }
            var value = piece[piece.index(after: equals)...].trimmingHTTPWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value
        }
        return nil
    }

    var isJSON: Bool {
        essence == "application/json" || essence == "text/json" || essence.hasSuffix("+json")
    }

    var isEventStream: Bool { essence == "text/event-stream" }

    var isFormURLEncoded: Bool { essence == "application/x-www-form-urlencoded" }

    var isMultipartFormData: Bool { essence == "multipart/form-data" }

    /// Any `multipart/*` type: `form-data`, `mixed`, `related`, `alternative`...
    var isMultipart: Bool { essence.hasPrefix("multipart/") }

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
    func trimmingHTTPWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })!
        return String(self[first...last])
    }
}
