import Foundation

/// A JSON value as it appears in a cassette or a request body.
///
/// Named apart from ServiceKit's `JSONValue` so that a test importing both modules can name either type:
/// `ServiceKit.JSONValue` cannot disambiguate, because ServiceKit also declares a type named `ServiceKit`.
///
/// Objects keep their members in order (see ``Members``), so a parsed document renders back in its own key
/// order. Equality is semantic: key order never matters and numbers compare by value, so `1`, `1.0` and
/// `1e0` are equal (see ``JSONNumber``). Objects cannot hold duplicate keys; the parser rejects them.
public enum CassetteJSON: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its literal text so that nothing recorded is rounded.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([CassetteJSON])
    /// An object, its members in order.
    case object(Members)
}

extension CassetteJSON {
    /// The member named `key` when this is an object, else `nil`.
    public subscript(key: String) -> CassetteJSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index` when this is an array and the index is in range, else `nil`.
    public subscript(index: Int) -> CassetteJSON? {
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
/// There is deliberately no `nil` literal (write ``CassetteJSON/null``), so that an absent `CassetteJSON?` is never
/// silently turned into JSON `null`.
extension CassetteJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
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
    public init(arrayLiteral elements: CassetteJSON...) { self = .array(elements) }
    /// An object value, its members in the literal's order; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, CassetteJSON)...) {
        var members = Members()
        for (key, value) in elements { members[key] = value }
        self = .object(members)
    }
}
