import Foundation

/// One header line: a name and a value, both kept exactly as they arrived.
public struct HTTPHeader: Sendable, Hashable, Codable {
    /// The field name as sent; comparisons through ``HTTPHeaders`` ignore its case.
    public var name: String
    /// The field value, without surrounding whitespace.
    public var value: String

    /// Creates a header line.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// An ordered list of header lines. Order and repeated names are preserved (a response may carry
/// several `Set-Cookie` lines); lookups by name ignore ASCII case, as HTTP requires.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The header lines in the order they were added.
    public private(set) var lines: [HTTPHeader]

    /// Creates headers from lines, keeping their order.
    public init(_ lines: [HTTPHeader] = []) {
        self.lines = lines
    }

    /// Creates headers from `(name, value)` pairs, keeping their order.
    public init(pairs: [(String, String)]) {
        self.lines = pairs.map { HTTPHeader(name: $0.0, value: $0.1) }
    }

    /// Creates headers from a dictionary literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(pairs: elements)
    }

    /// The number of header lines.
    public var count: Int { lines.count }

    /// Whether there are no header lines.
    public var isEmpty: Bool { lines.isEmpty }

    /// The first value for `name` (case-insensitive), or `nil` when absent.
    public subscript(name: String) -> String? {
        // By index: no line is copied on the way (this runs for most requests).
        for index in lines.indices where lines[index].name.caseInsensitiveEquals(name) { return lines[index].value }
        return nil
    }

    /// Every value for `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        lines.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Whether a line named `name` (case-insensitive) exists.
    public func contains(_ name: String) -> Bool {
        lines.contains { $0.name.caseInsensitiveEquals(name) }
    }

    /// Appends a line, keeping any existing lines of the same name.
    public mutating func add(name: String, value: String) {
        lines.append(HTTPHeader(name: name, value: value))
    }

    /// Replaces every line named `name` (case-insensitive) by one line with `value`, at the position of the
    /// first one, or appends it when absent.
    public mutating func set(name: String, value: String) {
        guard let first = lines.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) else {
            lines.append(HTTPHeader(name: name, value: value))
            return
        }
        lines[first].value = value
        var seen = false
        lines.removeAll { line in
            guard line.name.caseInsensitiveEquals(name) else { return false }
            defer { seen = true }
            return seen
        }
    }

    /// Removes every line named `name` (case-insensitive).
    public mutating func remove(name: String) {
        lines.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// Iterates the lines in order.
    public func makeIterator() -> IndexingIterator<[HTTPHeader]> {
        lines.makeIterator()
    }
}

extension String {
    /// ASCII case-insensitive equality, the comparison HTTP field names use; cheaper than `lowercased()`.
    /// It runs several times for every request (header lookups, the response's framing), so lengths are
    /// compared first (names that differ nearly always differ in length) and then the bytes in place.
    package func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let inPlace = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in
                for offset in 0..<left.count where !Self.sameIgnoringASCIICase(left[offset], right[offset]) { return false }
                return true
            }
        }
        if let inPlace, let equal = inPlace { return equal }
        return zip(utf8, other.utf8).allSatisfy { Self.sameIgnoringASCIICase($0, $1) }
    }

    /// Whether two bytes are equal, or the same ASCII letter in either case.
    private static func sameIgnoringASCIICase(_ left: UInt8, _ right: UInt8) -> Bool {
        if left == right { return true }
        let lowered = left | 0x20
        return lowered == right | 0x20 && lowered >= UInt8(ascii: "a") && lowered <= UInt8(ascii: "z")
    }
}
