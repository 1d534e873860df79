import Foundation

// The lenient, optional readers. Servers disagree on whether `42` is `42` or `"42"` and whether true is
// `true`, `1` or `"true"`; mapping code should not have to care. Each returns nil when the value is absent
// or cannot sensibly be read as the type.

extension JSON {
    /// A string, or a number written as text (`42` reads `"42"`, `2.5` reads `"2.5"`).
    public var string: String? {
        switch scalar {
        case .string(let string)?: string
        case .integer(let integer)?: String(integer)
        case .double(let double)?: Self.text(for: double)
        default: nil
        }
    }

    /// An integer from an integral number or a numeric string (`"42"`, `" 42 "`, `"42.0"`).
    public var int: Int? {
        switch scalar {
        case .integer(let integer)?: integer
        case .double(let double)?: Int(exactly: double)
        case .string(let string)?: Self.integer(from: string)
        default: nil
        }
    }

    /// A finite number from a number or a numeric string.
    public var double: Double? {
        switch scalar {
        case .integer(let integer)?: Double(integer)
        case .double(let double)?: double
        case .string(let string)?: Self.finiteDouble(from: string)
        default: nil
        }
    }

    /// A boolean from `true`/`false`, `1`/`0`, or the strings `"true"`/`"false"`/`"1"`/`"0"` (any case).
    public var bool: Bool? {
        switch scalar {
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
        guard case .string(let string)? = scalar, !string.isEmpty else { return nil }
        return URL(string: string)
    }

    /// The elements of an array, each knowing its index in the key path.
    public var array: [JSON]? {
        let base = path
        switch node {
        case .value(.array(let elements)):
            return elements.enumerated().map { index, element in
                JSON(.value(element), parentPath: base.appending(.index(index)), lastStep: nil)
            }
        case .document(let document, let array) where document.tape[array].kind == .array:
            return document.elements(ofArrayAt: array).enumerated().map { index, element in
                JSON(.document(document, element), parentPath: base.appending(.index(index)), lastStep: nil)
            }
        default:
            return nil
        }
    }

    /// The members of an object, each knowing its key in the key path.
    public var object: [String: JSON]? {
        let base = path
        var result: [String: JSON] = [:]
        switch node {
        case .value(.object(let members)):
            for (key, member) in members {
                result[key] = JSON(.value(member), parentPath: base, lastStep: .key(key))
            }
        case .document(let document, let object) where document.tape[object].kind == .object:
            for member in document.members(ofObjectAt: object) {
                result[member.key] = JSON(.document(document, member.value), parentPath: base, lastStep: .key(member.key))
            }
        default:
            return nil
        }
        return result
    }

    /// A date read the way `format` says (epoch seconds, ISO 8601, a pattern, ...).
    public func date(_ format: DateFormat) -> Date? {
        // A container reaches the format only as a whole value, built for it.
        (scalar ?? value).flatMap(format.date(from:))
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
