import Foundation

/// A JSON value as it appears in a cassette or a request body.
///
/// Equality is semantic: object key order never matters (objects are dictionaries) and numbers compare by
/// value, so `1`, `1.0` and `1e0` are equal (see ``JSONNumber``). Objects cannot hold duplicate keys; the
/// parser rejects them.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its literal text so that nothing recorded is rounded.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object; written with its keys sorted.
    case object([String: JSONValue])
}

extension JSONValue {
    /// The member named `key` when this is an object, else `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index` when this is an array and the index is in range, else `nil`.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The string when this is a string, else `nil`.
    public var stringValue: String? {
        guard case .string(let string) = self else { return nil }
        return string
    }

    /// A short English name of the value's kind (`"a string"`, `"an object"`...), used in error sentences.
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Literals build values directly: `["login": "octocat", "id": 1, "tags": ["a"], "admin": false]`.
/// There is deliberately no `nil` literal (write ``JSONValue/null``), so that an absent `JSONValue?` is never
/// silently turned into JSON `null`.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A number value written as the integer's decimal digits.
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    /// A number value written with Swift's shortest round-tripping spelling of the double.
    public init(floatLiteral value: Double) { self = .number(JSONNumber(finite: value)) }
    /// A boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array value.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object value; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
