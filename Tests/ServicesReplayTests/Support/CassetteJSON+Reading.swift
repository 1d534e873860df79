import Foundation
@testable import MockServer

// Typed reads of recorded values, so tests compare a service's mapping with what the cassette holds rather
// than with numbers copied by hand. Deliberately independent of ServiceKit's lenient JSON: a reading bug
// there must not hide behind the same bug here. Numeric strings are read too, as the feed sends them.

extension CassetteJSON {
    /// A whole number, from a number or a numeric string.
    var int: Int? {
        switch self {
        case .number(let number): number.intValue
        case .string(let text): Int(text)
        default: nil
        }
    }

    /// A number.
    var double: Double? {
        guard case .number(let number) = self else { return nil }
        return number.doubleValue
    }

    /// A boolean.
    var bool: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// A string.
    var string: String? { stringValue }

    /// A URL from a string.
    var url: URL? { stringValue.flatMap(URL.init(string:)) }

    /// The elements of an array.
    var elements: [CassetteJSON]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }
}
