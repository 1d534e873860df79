import Foundation
@_spi(JSONScanning) import ServiceReplayShared

/// A parsed JSON body kept as its bytes plus a tape: one 64-bit entry per value, in document order, nulls
/// left out. Reading a value decodes it from the bytes only then, so a response is parsed once, without a
/// tree of dictionaries and strings the mapping never looks at: a service that reads 8 fields of 20 pays
/// for 8, in time and in memory.
///
/// Immutable once parsed, hence `Sendable`. ``JSONParser`` builds it and has already validated everything
/// (structure, UTF-8, escapes, number ranges), so reading never fails.
final class JSONDocument: Sendable {
    let bytes: Data
    let tape: [Entry]

    init(bytes: Data, tape: [Entry]) {
        self.bytes = bytes
        self.tape = tape
    }

    /// Parses `data`; `nil` when the whole document is `null`.
    static func parse(_ data: Data) throws(JSONParseError) -> JSONDocument? {
        let tape = try JSONParser.tape(for: data)
        return tape.isEmpty ? nil : JSONDocument(bytes: data, tape: tape)
    }

    /// One value on the tape. Scalars point into the bytes (`start` and `length`: a string's text between
    /// its quotes, a number's literal); containers hold their `count` of members or elements and the index
    /// of the entry after their last one (`end`), so skipping a container is one step. An object's members
    /// follow it as key, value, key, value.
    struct Entry: Sendable {
        enum Kind: UInt64 {
            case object, array, plainString, escapedString, integer, double, `true`, `false`
        }

        static let maximumLength = (1 << 28) - 1

        private let raw: UInt64

        init(_ kind: Kind, start: Int, length: Int) {
            raw = kind.rawValue << 60 | UInt64(length) << 32 | UInt64(start)
        }

        init(_ kind: Kind, end: Int, count: Int) {
            self.init(kind, start: end, length: count)
        }

        var kind: Kind { Kind(rawValue: raw >> 60)! }
        var start: Int { Int(truncatingIfNeeded: raw & 0xFFFF_FFFF) }
        var length: Int { Int(truncatingIfNeeded: raw >> 32 & 0x0FFF_FFFF) }
        var end: Int { start }
        var count: Int { length }
    }

    // MARK: Navigation

    /// The index of the entry after the value at `index` (and after everything inside it).
    func next(after index: Int) -> Int {
        let entry = tape[index]
        switch entry.kind {
        case .object, .array: return entry.end
        default: return index + 1
        }
    }

    /// The entry indices of the elements of the array at `index`.
    func elements(ofArrayAt index: Int) -> [Int] {
        var indices: [Int] = []
        indices.reserveCapacity(tape[index].count)
        var element = index + 1
        let end = tape[index].end
        while element < end {
            indices.append(element)
            element = next(after: element)
        }
        return indices
    }

    /// The entry index of the value of member `key` of the object at `index`; the last one when the key is
    /// repeated, `nil` when absent.
    func member(_ key: String, ofObjectAt index: Int) -> Int? {
        var key = key
        return key.withUTF8 { wanted in
            bytes.withUnsafeBytes { raw in
                var found: Int?
                var member = index + 1
                let end = tape[index].end
                while member < end {
                    let entry = tape[member]
                    if entry.kind == .plainString {
                        if entry.length == wanted.count,
                            wanted.isEmpty || memcmp(raw.baseAddress! + entry.start, wanted.baseAddress!, wanted.count) == 0
                        {
                            found = member + 1
                        }
                    } else if string(at: member).utf8.elementsEqual(wanted) {
                        found = member + 1
                    }
                    member = next(after: member + 1)
                }
                return found
            }
        }
    }

    /// Every member of the object at `index` as its key and the entry index of its value, in document order.
    func members(ofObjectAt index: Int) -> [(key: String, value: Int)] {
        var members: [(key: String, value: Int)] = []
        members.reserveCapacity(tape[index].count)
        var member = index + 1
        let end = tape[index].end
        while member < end {
            members.append((string(at: member), member + 1))
            member = next(after: member + 1)
        }
        return members
    }

    // MARK: Values

    /// The value at `index` when it is a string, number or boolean; `nil` for a container.
    func scalar(at index: Int) -> JSONValue? {
        let entry = tape[index]
        switch entry.kind {
        case .object, .array: return nil
        case .plainString, .escapedString: return .string(string(at: index))
        case .integer: return .integer(integer(at: index))
        case .double: return .double(double(at: index))
        case .true: return .bool(true)
        case .false: return .bool(false)
        }
    }

    /// The value at `index` with everything inside it, as a ``JSONValue`` tree.
    func value(at index: Int) -> JSONValue {
        switch tape[index].kind {
        case .object:
            let members = members(ofObjectAt: index)
            var object = [String: JSONValue](minimumCapacity: members.count)
            for member in members {
                object[member.key] = value(at: member.value)
            }
            return .object(object)
        case .array:
            return .array(elements(ofArrayAt: index).map(value(at:)))
        default:
            return scalar(at: index)!
        }
    }

    func string(at index: Int) -> String {
        let entry = tape[index]
        return bytes.withUnsafeBytes { raw in
            let text = UnsafeRawBufferPointer(rebasing: raw[entry.start..<(entry.start + entry.length)])
            if entry.kind == .plainString {
                return String(decoding: text, as: UTF8.self)
            }
            return JSONScanner.unescapedString(text.assumingMemoryBound(to: UInt8.self))
        }
    }

    private func integer(at index: Int) -> Int {
        let entry = tape[index]
        return bytes.withUnsafeBytes { raw in
            // The parser checked that the literal fits Int.
            JSONParser.integer(
                UnsafeRawBufferPointer(rebasing: raw[entry.start..<(entry.start + entry.length)])
                    .assumingMemoryBound(to: UInt8.self))!
        }
    }

    private func double(at index: Int) -> Double {
        let entry = tape[index]
        return bytes.withUnsafeBytes { raw in
            let text = UnsafeRawBufferPointer(rebasing: raw[entry.start..<(entry.start + entry.length)])
            // The parser checked that the literal is a finite Double.
            return Double(String(decoding: text, as: UTF8.self))!
        }
    }
}
