/// A response's header fields in the order received, looked up case-insensitively.
public struct ResponseHeaders: Hashable, Sendable, ExpressibleByDictionaryLiteral {
    /// One header line.
    public struct Field: Hashable, Sendable {
        /// The name as received.
        public let name: String
        /// The value as received.
        public let value: String

        /// A header line.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The lines in order; a repeated name appears once per line.
    public let fields: [Field]

    /// Headers from `fields`, kept in order.
    public init(_ fields: [Field]) {
        self.fields = fields
    }

    /// Headers from name/value pairs, kept in order (repeats allowed).
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements.map { Field(name: $0.0, value: $0.1) })
    }

    /// Every value of `name`, in order, matched case-insensitively.
    public func values(for name: String) -> [String] {
        let wanted = name.lowercased()
        return fields.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// The value of `name`; repeated lines are combined with `, ` as RFC 9110 §5.3 allows. `nil` when absent.
    public subscript(name: String) -> String? {
        let values = values(for: name)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}
