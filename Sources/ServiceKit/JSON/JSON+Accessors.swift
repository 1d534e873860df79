import Foundation

// The lenient, optional readers. Servers disagree on whether `42` is `42` or `"42"` and whether true is
// `true`, `1` or `"true"`; mapping code should not have to care. Each returns nil when the value is absent
// or cannot sensibly be read as the type.

extension JSON {
    /// A string, or a number written as text (`42` reads `"42"`, `2.5` reads `"2.5"`).
    public var string: String? {
        switch value {
        case .string(let string)?: string
        case .integer(let integer)?: String(integer)
        case .double(let double)?: Self.text(for: double)
        default: nil
        }
    }

    /// An integer from an integral number or a numeric string (`"42"`, `" 42 "`, `"42.0"`).
    public var int: Int? {
        switch value {
        case .integer(let integer)?: integer
        case .double(let double)?: Int(exactly: double)
        case .string(let string)?: Self.integer(from: string)
        default: nil
        }
    }

    /// A finite number from a number or a numeric string.
    public var double: Double? {
        switch value {
        case .integer(let integer)?: Double(integer)
        case .double(let double)?: double
        case .string(let string)?: Self.finiteDouble(from: string)
        default: nil
        }
    }

    /// A boolean from `true`/`false`, `1`/`0`, or the strings `"true"`/`"false"`/`"1"`/`"0"` (any case).
    public var bool: Bool? {
        switch value {
        case .bool(let bool)?: bool
        case .integer(1)?: true
        case .integer(0)?: false
        case .string(let string)?:
            switch string.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "1": true
            case "false", "0": false
            default: nil
            }
        default: nil
        }
    }

    /// A URL from a non-empty string that parses as one.
    public var url: URL? {
        guard case .string(let string)? = value, !string.isEmpty else { return nil }
        return URL(string: string)
    }

    /// The elements of an array, each knowing its index in the key path.
    public var array: [JSON]? {
        guard case .array(let elements)? = value else { return nil }
        return elements.enumerated().map { index, element in
            JSON(element, path: path.appending(.index(index)))
        }
    }

    /// The members of an object, each knowing its key in the key path.
    public var object: [String: JSON]? {
        guard case .object(let members)? = value else { return nil }
        var result: [String: JSON] = [:]
        for (key, member) in members {
            result[key] = JSON(member, path: path.appending(.key(key)))
        }
        return result
    }

    /// A date read the way `format` says (epoch seconds, ISO 8601, a pattern, ...).
    public func date(_ format: DateFormat) -> Date? {
        value.flatMap(format.date(from:))
    }

    static func integer(from string: String) -> Int? {
        let trimmed = string.trimmingCharacters(in: .whitespaces)
        if let integer = Int(trimmed) {
            return integer
        }
        return finiteDouble(from: trimmed).flatMap { Int(exactly: $0) }
    }

    static func finiteDouble(from string: String) -> Double? {
        guard let double = Double(string.trimmingCharacters(in: .whitespaces)), double.isFinite else {
            return nil
        }
        return double
    }

    static func text(for double: Double) -> String {
        if let integer = Int(exactly: double) {
            return String(integer)
        }
        return String(double)
    }
}
