/// Writes JSON the way `JSONEncoder` does with `.withoutEscapingSlashes` (and `.prettyPrinted` when asked):
/// `"key" : value` with two-space indentation, empty containers as `[\n\n]`, control characters escaped,
/// everything else (slashes, non-ASCII) verbatim. Members are written in their order; a cassette builds its
/// own objects with sorted keys, so its file matches `JSONEncoder`'s `.sortedKeys` output byte for byte and
/// cassettes written by either stay diff-free. Numbers are written as their literal text, so nothing is
/// rounded. Recorded JSON bodies are written in the upstream's own layout instead (see ``JSONLayout``).
struct JSONWriter {
    /// Where whitespace goes.
    struct Style {
        /// The indentation of one nesting level; `nil` writes everything on one line.
        var indent: [UInt8]?
        /// What follows each key: `:`, `: ` or ` : `.
        var keySeparator: StaticString
        /// What separates members and elements on one line: `,` or `, ` (a newline follows `,` when indented).
        var itemSeparator: StaticString
        /// Whether an empty container is written `[]` even when indented (`JSONEncoder` writes `[\n\n]`).
        var emptyOnOneLine: Bool

        /// No whitespace at all.
        static let compact = Style(indent: nil, keySeparator: ":", itemSeparator: ",", emptyOnOneLine: true)
        /// `JSONEncoder`'s `.prettyPrinted`: the layout of cassette files.
        static let cassette = Style(indent: Array("  ".utf8), keySeparator: " : ", itemSeparator: ",", emptyOnOneLine: false)
    }

    private(set) var bytes: [UInt8] = []
    private let style: Style
    private var depth = 0

    init(style: Style, capacity: Int = 256) {
        self.style = style
        bytes.reserveCapacity(capacity)
    }

    static func write(_ value: CassetteJSON, pretty: Bool) -> [UInt8] {
        write(value, style: pretty ? .cassette : .compact)
    }

    static func write(_ value: CassetteJSON, style: Style, capacity: Int = 256) -> [UInt8] {
        var writer = JSONWriter(style: style, capacity: capacity)
        writer.write(value)
        return writer.bytes
    }

    /// `text` as a JSON string literal, quotes included.
    static func quoted(_ text: String) -> String {
        var writer = JSONWriter(style: .compact, capacity: text.utf8.count + 2)
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
            guard openContainer(UInt8(ascii: "["), empty: elements.isEmpty) else { return }
            for (position, element) in elements.enumerated() {
                if position > 0 { separateItems() }
                startLine()
                write(element)
            }
            closeContainer(UInt8(ascii: "]"))
        case .object(let members):
            guard openContainer(UInt8(ascii: "{"), empty: members.isEmpty) else { return }
            for (position, member) in members.enumerated() {
                if position > 0 { separateItems() }
                startLine()
                writeString(member.key)
                append(style.keySeparator)
                write(member.value)
            }
            closeContainer(UInt8(ascii: "}"))
        }
    }

    /// Writes the opening bracket; returns `false` when the container was written whole (empty, one line).
    private mutating func openContainer(_ bracket: UInt8, empty: Bool) -> Bool {
        bytes.append(bracket)
        if empty && (style.emptyOnOneLine || style.indent == nil) {
            bytes.append(bracket + 2)  // `[` + 2 is `]`, `{` + 2 is `}`
            return false
        }
        if style.indent != nil {
            bytes.append(UInt8(ascii: "\n"))
            depth += 1
        }
        return true
    }

    private mutating func separateItems() {
        append(style.itemSeparator)
        if style.indent != nil { bytes.append(UInt8(ascii: "\n")) }
    }

    private mutating func startLine() {
        guard let indent = style.indent else { return }
        for _ in 0..<depth { bytes.append(contentsOf: indent) }
    }

    private mutating func closeContainer(_ bracket: UInt8) {
        if style.indent != nil {
            bytes.append(UInt8(ascii: "\n"))
            depth -= 1
            startLine()
        }
        bytes.append(bracket)
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
