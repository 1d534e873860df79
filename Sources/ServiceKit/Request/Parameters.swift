/// A service's request parameters: named values in the order they were given. Built from the service's
/// properties with a dictionary literal in which a `nil` optional simply disappears:
///
/// ```swift
/// var parameters: Parameters { ["since": since, "per_page": perPage] }   // since: Int?, perPage: Int?
/// ```
///
/// A value may itself be parameters, for a `.json` body that nests objects (`nil` optionals disappear there
/// too):
///
/// ```swift
/// var parameters: Parameters { ["data": ["title": title, "done": done] as Parameters] }
/// ```
///
/// Names are unique: a later value for a name replaces the earlier one in place.
public struct Parameters: Hashable, Sendable, ExpressibleByDictionaryLiteral {
    /// One named value.
    struct Entry: Hashable, Sendable {
        /// The parameter's name, as sent.
        let name: String
        /// The parameter's value, before formatting.
        let value: ParameterValue
    }

    /// The parameters in order; ``names`` and the subscript read them.
    private(set) var entries: [Entry] = []

    /// No parameters.
    public init() {}

    /// The given parameters in order, leaving out every `nil` value.
    public init(dictionaryLiteral elements: (String, (any ParameterConvertible)?)...) {
        for (name, value) in elements {
            set(name, to: value)
        }
    }

    /// The value named `name`; setting `nil` removes it, setting a value replaces it in place or appends it.
    public subscript(name: String) -> ParameterValue? {
        get { entries.first { $0.name == name }?.value }
        set { set(name, to: newValue) }
    }

    /// Sets, replaces or (for `nil`) removes the value named `name`.
    public mutating func set(_ name: String, to value: (any ParameterConvertible)?) {
        let index = entries.firstIndex { $0.name == name }
        switch (index, value) {
        case (let index?, let value?): entries[index] = Entry(name: name, value: value.parameterValue)
        case (nil, let value?): entries.append(Entry(name: name, value: value.parameterValue))
        case (let index?, nil): entries.remove(at: index)
        case (nil, nil): break
        }
    }

    /// Appends the entries of `defaults` whose names are not already here: a service's own value wins over a
    /// client's common parameter of the same name.
    public mutating func merge(defaults: Parameters) {
        for entry in defaults.entries where self[entry.name] == nil {
            entries.append(entry)
        }
    }

    /// The names in order.
    public var names: [String] { entries.map(\.name) }

    /// Whether there are no parameters.
    public var isEmpty: Bool { entries.isEmpty }
}
