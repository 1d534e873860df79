/// How many values one redaction pass replaced by the placeholder, by place.
///
/// Its ``description`` is what `recorder redact` prints: `2 headers, 1 query parameter, 3 body fields`, or
/// `nothing` when no value changed.
package struct RedactionCount: Sendable, Hashable, CustomStringConvertible {
    /// Header lines whose value changed (a `Cookie` line with two cookies counts once).
    var headers: Int
    /// Query parameters whose value was replaced.
    var queryParameters: Int
    /// Form fields and JSON members (at any depth) whose value was replaced.
    var bodyFields: Int

    /// Creates a count; every place defaults to zero.
    init(headers: Int = 0, queryParameters: Int = 0, bodyFields: Int = 0) {
        self.headers = headers
        self.queryParameters = queryParameters
        self.bodyFields = bodyFields
    }

    /// Every replaced value.
    var total: Int { headers + queryParameters + bodyFields }

    /// Whether nothing was replaced.
    package var isEmpty: Bool { total == 0 }

    /// Adds the counts of `other`.
    static func += (lhs: inout RedactionCount, rhs: RedactionCount) {
        lhs.headers += rhs.headers
        lhs.queryParameters += rhs.queryParameters
        lhs.bodyFields += rhs.bodyFields
    }

    /// The non-zero places in a fixed order, `2 headers, 1 query parameter`; `nothing` when empty.
    package var description: String {
        let parts = [(headers, "header"), (queryParameters, "query parameter"), (bodyFields, "body field")]
            .filter { $0.0 > 0 }
            .map { count, noun in "\(count) \(noun)\(count == 1 ? "" : "s")" }
        return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
    }
}
