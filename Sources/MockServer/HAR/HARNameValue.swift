/// A `{name, value}` pair, used by HAR for headers, query strings and cookies.
public struct HARNameValue: Codable, Sendable, Hashable {
    /// The name.
    public var name: String
    /// The value.
    public var value: String

    /// Creates a pair.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
