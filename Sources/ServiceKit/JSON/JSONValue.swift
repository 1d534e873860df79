/// A parsed JSON document with every `null` already removed: an object never holds a key whose value
/// was `null`, an array never holds a `null` element. Integers that fit `Int` are `.integer`; every
/// other number is `.double`.
///
/// Services rarely touch it directly: they read through ``JSON``, which adds key paths and lenient,
/// typed accessors. Literals build values in tests: `let user: JSONValue = ["id": "17", "age": 40]`.
public enum JSONValue: Hashable, Sendable {
    /// A JSON string.
    case string(String)
    /// A JSON number without fraction or exponent that fits `Int`.
    case integer(Int)
    /// Any other JSON number.
    case double(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// A JSON array, nulls removed.
    case array([JSONValue])
    /// A JSON object, null-valued keys removed.
    case object([String: JSONValue])
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An `.integer`.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An `.array`.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An `.object`; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
