/// The query parameters of a control request, read as the endpoints need them.
struct ControlQuery {
    /// A parameter read as a whole number.
    enum Integer: Equatable {
        case absent
        case value(Int)
        /// Present, but not a whole number of 0 or more: the text as sent.
        case invalid(String)
    }

    private let pairs: [(name: String, value: String)]

    init(_ query: String?) {
        pairs = (query ?? "").split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    /// The last value given for `name`, as a whole number of 0 or more.
    func integer(_ name: String) -> Integer {
        guard let text = pairs.last(where: { $0.name == name })?.value else { return .absent }
        guard let value = Int(text), value >= 0 else { return .invalid(text) }
        return .value(value)
    }
}
