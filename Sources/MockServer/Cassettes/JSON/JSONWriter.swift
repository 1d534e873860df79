/// Writes JSON the way `JSONEncoder` does with `.sortedKeys` and `.withoutEscapingSlashes` (and
/// `.prettyPrinted` when asked): keys in UTF-8 byte order, `"key" : value` with two-space indentation,
/// empty containers as `[\n\n]`, control characters escaped, everything else (slashes, non-ASCII) verbatim.
/// Matching Foundation byte for byte lets cassettes written by either stay diff-free; numbers are written
/// as their literal text, so nothing is rounded.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private let pretty: Bool
    private var indent = 0

    init(pretty: Bool, capacity: Int = 256) {
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    static func write(_ value: CassetteJSON, pretty: Bool) -> [UInt8] {
        var writer = JSONWriter(pretty: pretty)
        writer.write(value)
        return writer.bytes
    }

    /// `text` as a JSON string literal, quotes included.
    static func quoted(_ text: String) -> String {
        var writer = JSONWriter(pretty: false, capacity: text.utf8.count + 2)
        writer.writeString(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    mutating func write(_ value: CassetteJSON) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .number(let number): bytes.append(contentsOf: number.literal.utf8)
        case .string(let string): writeString(string)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            if pretty {
                bytes.append(UInt8(ascii: "\n"))
                indent += 1
            }
            for (position, element) in elements.enumerated() {
                if position > 0 { append(pretty ? ",\n" : ",") }
                if pretty { writeIndent() }
                write(element)
            }
            closeContainer(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            if pretty {
                bytes.append(UInt8(ascii: "\n"))
                indent += 1
            }
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (position, member) in sorted.enumerated() {
                if position > 0 { append(pretty ? ",\n" : ",") }
                if pretty { writeIndent() }
                writeString(member.key)
                append(pretty ? " : " : ":")
                write(member.value)
            }
            closeContainer(UInt8(ascii: "}"))
        }
    }

    private mutating func closeContainer(_ bracket: UInt8) {
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            indent -= 1
            writeIndent()
        }
        bytes.append(bracket)
    }

    private mutating func writeIndent() {
        for _ in 0..<indent { append("  ") }
    }

    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = string
        text.withUTF8 { utf8 in
            var mark = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<index]))
                mark = index + 1
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case 0x08: append("\\b")
                case 0x0C: append("\\f")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    append("\\u00")
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0x0F)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
