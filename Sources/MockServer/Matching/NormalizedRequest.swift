/// The comparable remainder of a request once its bucket (method and path) is fixed and a cassette's rules
/// applied: sorted query fields without ignored ones, the chosen headers' values, the ``RequestConditions``, and the body without
/// ignored fields (form fields and multipart parts sorted). Two requests match exactly when these are equal,
/// after redaction placeholders are accounted for by ``WildcardShape``.
struct NormalizedRequest: Sendable, Hashable {
    var query: [FormField]
    /// The chosen headers and the conditions, out of line and `nil` when both are empty, as they are for nearly
    /// every request: this value is the key of the index's tables, one per recorded interaction, where the two
    /// inline would take 24 bytes more per interaction (6 MB at 100,000) than this one reference.
    private var rare: Rare?
    var body: BodyContent

    /// ``NormalizedRequest/headers`` and ``NormalizedRequest/conditions``, never both empty.
    private final class Rare: Sendable, Hashable {
        let headers: [[String]]
        let conditions: RequestConditions

        init(headers: [[String]], conditions: RequestConditions) {
            self.headers = headers
            self.conditions = conditions
        }

        static func == (left: Rare, right: Rare) -> Bool {
            left.headers == right.headers && left.conditions == right.conditions
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(headers)
            hasher.combine(conditions)
        }
    }

    /// One list of values per name in ``PreparedRules/headers``, in that order; values trimmed.
    var headers: [[String]] {
        get { rare?.headers ?? [] }
        set { rare = Self.rare(headers: newValue, conditions: conditions) }
    }

    var conditions: RequestConditions {
        get { rare?.conditions ?? RequestConditions() }
        set { rare = Self.rare(headers: headers, conditions: newValue) }
    }

    init(_ parts: RequestParts, rules: PreparedRules) {
        query = NormalizedRequest.sortedFields(parts.query, ignoring: rules.ignoredQuery)
        let headers = rules.headers.isEmpty ? [] : rules.headers.map { name in parts.headers.values(for: name).map { $0.trimmingHTTPWhitespace() } }
        rare = Self.rare(headers: headers, conditions: parts.conditions)
        body = rules.comparesBody(method: parts.method, path: parts.path) ? NormalizedRequest.normalize(parts.body, rules: rules) : .empty
    }

    /// `nil` for nothing to keep, so that equal requests hold equal values.
    private static func rare(headers: [[String]], conditions: RequestConditions) -> Rare? {
        headers.isEmpty && conditions.isEmpty ? nil : Rare(headers: headers, conditions: conditions)
    }

    /// Whether there is nothing to compare: no query fields, no chosen headers, no conditions, no body.
    var isPlain: Bool {
        guard query.isEmpty, rare == nil, case .empty = body else { return false }
        return true
    }

    /// `body` without what `rules` leave out (ignored fields and paths, the content of ignored XML elements), a
    /// GraphQL document normalized (``GraphQLDocument``).
    static func normalize(_ body: BodyContent, rules: PreparedRules) -> BodyContent {
        let ignored = rules.ignoredBodyFields
        switch body {
        case .empty:
            return body
        case .bytes(let data):
            return rules.ignoredXMLElements.isEmpty ? body : .bytes(XMLElementContent.blanking(rules.ignoredXMLElements, in: data))
        case .json(var value):
            value = GraphQLRequest.normalizingDocuments(value)
            if !ignored.isEmpty { value = removing(ignored, from: value) }
            for path in rules.ignoredBodyPaths { value.leaveOut(path.components[...]) }
            return .json(value)
        case .form(let fields):
            return .form(sortedFields(fields, ignoring: ignored))
        case .multipart(let parts):
            return .multipart(parts.filter { !ignored.contains($0.name) }.sorted())
        }
    }

    /// The fields without ignored names, sorted; shares the input's storage when nothing changes.
    static func sortedFields(_ fields: [FormField], ignoring ignored: Set<String>) -> [FormField] {
        var kept = fields
        if !ignored.isEmpty && fields.contains(where: { ignored.contains($0.name) }) {
            kept.removeAll { ignored.contains($0.name) }
        }
        for index in kept.indices.dropFirst() where kept[index] < kept[index - 1] {
            return kept.sorted()
        }
        return kept
    }

    /// The value without object members named in `ignored`, at any depth.
    static func removing(_ ignored: Set<String>, from value: CassetteJSON) -> CassetteJSON {
        switch value {
        case .object(let members):
            var kept = CassetteJSON.Members()
            for (key, member) in members where !ignored.contains(key) {
                kept[key] = removing(ignored, from: member)
            }
            return .object(kept)
        case .array(let elements):
            return .array(elements.map { removing(ignored, from: $0) })
        default:
            return value
        }
    }
}
