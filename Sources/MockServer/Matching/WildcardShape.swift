import Foundation
import ServiceReplayShared

/// Where a recorded request holds the redaction placeholder (`"<redacted>"`), which matches any value in that
/// place: a query or form field, a chosen header, a JSON value, a multipart part's content. Inside a header
/// value or a JSON string (a URL whose signature was redacted) it matches any run of characters.
///
/// A shape also says which ``RequestConditions`` the recorded request carried, the only ones compared.
///
/// Interactions whose placeholders sit in the same places, and that carried the same conditions, share a shape. A received request is looked up in
/// each shape's table after ``apply(to:)`` has copied the placeholders into it; a bucket rarely holds more than
/// one or two shapes, so lookup stays a hash probe or two however many interactions there are.
struct WildcardShape: Sendable, Hashable {
    /// A field name whose recorded values include placeholders: the received request must carry exactly
    /// `fixed` plus `placeholders` more values under that name.
    struct FieldWildcard: Sendable, Hashable {
        var name: String
        var placeholders: Int
        var fixed: [String]
    }

    /// A chosen header (by position in the rules' list) whose values at some positions hold placeholders,
    /// whole (`<redacted>`) or inside (`session=<redacted>; theme=<redacted>`, as cookies are redacted).
    struct HeaderWildcard: Sendable, Hashable {
        var header: Int
        var count: Int
        var patterns: [Int: String]
    }

    /// A JSON value whose recorded string is the placeholder (any value matches) or holds it inside (a string
    /// that ``value(_:fits:)`` the pattern matches).
    struct JSONWildcard: Sendable, Hashable {
        var path: JSONPath
        var pattern: String
    }

    /// A multipart part (by name, filename and content type) whose recorded content is the placeholder.
    struct PartWildcard: Sendable, Hashable {
        var name: String
        var filename: String?
        var contentType: String?
    }

    static let placeholder = Cassette.redactionPlaceholder
    static let placeholderData = Data(Cassette.redactionPlaceholder.utf8)

    var query: [FieldWildcard] = []
    var headers: [HeaderWildcard] = []
    var json: [JSONWildcard] = []
    var form: [FieldWildcard] = []
    var parts: [PartWildcard] = []
    /// The conditions compared: those the recorded request carried.
    var conditions: RequestConditions.Compared

    /// Whether there are no placeholders (conditions aside).
    var isEmpty: Bool { query.isEmpty && headers.isEmpty && json.isEmpty && form.isEmpty && parts.isEmpty }

    /// The shape of a recorded request, normalized under the cassette's rules.
    init(recorded request: NormalizedRequest) {
        conditions = request.conditions.compared
        query = WildcardShape.fieldWildcards(request.query)
        for (header, values) in request.headers.enumerated() {
            var patterns: [Int: String] = [:]
            for (position, value) in values.enumerated() where value.contains(WildcardShape.placeholder) {
                patterns[position] = value
            }
            if !patterns.isEmpty { headers.append(HeaderWildcard(header: header, count: values.count, patterns: patterns)) }
        }
        switch request.body {
        case .json(let value): json = value.strings(containing: WildcardShape.placeholder).map { JSONWildcard(path: $0.path, pattern: $0.string) }
        case .form(let fields): form = WildcardShape.fieldWildcards(fields)
        case .multipart(let recordedParts):
            parts = recordedParts.filter { $0.data == WildcardShape.placeholderData }
                .map { PartWildcard(name: $0.name, filename: $0.filename, contentType: $0.contentType) }
        case .empty, .bytes: break
        }
    }

    private static func fieldWildcards(_ fields: [FormField]) -> [FieldWildcard] {
        var wildcards: [FieldWildcard] = []
        let names = Set(fields.lazy.filter { $0.value == placeholder }.map(\.name))
        for name in names.sorted() {
            let values = fields.filter { $0.name == name }.map(\.value)
            wildcards.append(
                FieldWildcard(
                    name: name, placeholders: values.count { $0 == placeholder }, fixed: values.filter { $0 != placeholder }
                ))
        }
        return wildcards
    }

    /// The received request with the placeholders written into their places and only the compared conditions
    /// kept, ready to compare with recorded requests of this shape; `nil` when it cannot match any of them (a
    /// placeholder's place is missing, or a field has the wrong number of values).
    func apply(to request: NormalizedRequest) -> NormalizedRequest? {
        var result = request
        if !request.conditions.isEmpty { result.conditions = request.conditions.keeping(conditions) }
        guard !isEmpty else { return result }
        if !query.isEmpty {
            guard let substituted = WildcardShape.substitute(query, in: request.query) else { return nil }
            result.query = substituted
        }
        for wildcard in headers {
            guard result.headers[wildcard.header].count == wildcard.count else { return nil }
            for (position, pattern) in wildcard.patterns {
                guard WildcardShape.value(result.headers[wildcard.header][position], fits: pattern) else { return nil }
                result.headers[wildcard.header][position] = pattern
            }
        }
        if !json.isEmpty {
            guard case .json(var value) = result.body else { return nil }
            for wildcard in json {
                if wildcard.pattern != WildcardShape.placeholder {
                    guard case .string(let received)? = value.value(at: wildcard.path), WildcardShape.value(received, fits: wildcard.pattern) else {
                        return nil
                    }
                }
                guard value.replace(at: wildcard.path.components[...], with: .string(wildcard.pattern)) else { return nil }
            }
            result.body = .json(value)
        }
        if !form.isEmpty {
            guard case .form(let fields) = result.body, let substituted = WildcardShape.substitute(form, in: fields) else { return nil }
            result.body = .form(substituted)
        }
        if !parts.isEmpty {
            guard case .multipart(var receivedParts) = result.body else { return nil }
            for wildcard in parts {
                var found = false
                for index in receivedParts.indices
                where receivedParts[index].name == wildcard.name
                    && receivedParts[index].filename == wildcard.filename && receivedParts[index].contentType == wildcard.contentType
                {
                    receivedParts[index].data = WildcardShape.placeholderData
                    found = true
                }
                guard found else { return nil }
            }
            result.body = .multipart(receivedParts.sorted())
        }
        return result
    }

    /// Whether `value` fits `pattern`, in which each placeholder stands for any run of characters.
    static func value(_ value: String, fits pattern: String) -> Bool {
        let pieces = pattern.components(separatedBy: placeholder)
        guard pieces.count > 1 else { return value == pattern }
        var rest = Substring(value)
        guard rest.hasPrefix(pieces[0]) else { return false }
        rest = rest.dropFirst(pieces[0].count)
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let found = rest.range(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        return rest.hasSuffix(pieces.last!) && rest.count >= pieces.last!.count
    }

    /// Replaces each wildcard field's received values by the recorded ones (fixed values plus placeholders)
    /// when the received values are the fixed ones plus exactly as many others as there are placeholders.
    private static func substitute(_ wildcards: [FieldWildcard], in fields: [FormField]) -> [FormField]? {
        var result = fields
        for wildcard in wildcards {
            var received = result.filter { $0.name == wildcard.name }.map(\.value)
            guard received.count == wildcard.fixed.count + wildcard.placeholders else { return nil }
            for value in wildcard.fixed {
                guard let position = received.firstIndex(of: value) else { return nil }
                received.remove(at: position)
            }
            result.removeAll { $0.name == wildcard.name }
            result += wildcard.fixed.map { FormField(name: wildcard.name, value: $0) }
            result += Array(repeating: FormField(name: wildcard.name, value: placeholder), count: wildcard.placeholders)
        }
        return result.sorted()
    }
}
