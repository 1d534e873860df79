/// A `{name, value}` pair, used by HAR for headers, query strings and cookies.
package struct HARNameValue: Codable, Sendable, Hashable {
    /// The name.
    var name: String
    /// The value.
    var value: String

    /// Creates a pair.
    init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
