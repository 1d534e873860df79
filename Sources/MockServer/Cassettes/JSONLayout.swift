import Foundation

/// Where the whitespace of a JSON body goes, so that a body stored inline renders back to the very bytes the
/// upstream sent.
///
/// The layouts are those common servers write: no whitespace (`{"a":1,"b":[1,2]}`), one line with a space
/// after each `,` and `:` (Python's `json.dumps`), and one member per line indented by a fixed unit with
/// `": "` after keys and empty containers as `{}` and `[]` (`JSON.stringify(value, null, 2)`, Python with
/// `indent=2`, Go's `MarshalIndent`). Any of them may end with a newline. A body laid out otherwise is stored
/// as exact text instead (see ``RecordedBody/init(_:contentType:)``).
///
/// In a cassette: `"layout"` next to `"json"`, one of `"compact"` (the default, left out), `"spaced"`,
/// `"indent-N"` (N spaces, 1 to 16) or `"indent-tab"`; and `"finalNewline": true` when the body ends with one.
package struct JSONLayout: Sendable, Hashable {
    /// How members and elements are spread over lines.
    package enum Lines: Sendable, Hashable {
        /// One line, no whitespace.
        case compact
        /// One line, `", "` between items and `": "` after keys.
        case spaced
        /// One item per line, each level indented by this many spaces (1 to 16).
        case indentedBySpaces(Int)
        /// One item per line, each level indented by a tab.
        case indentedByTabs
    }

    /// How members and elements are spread over lines.
    var lines: Lines
    /// Whether the body ends with a newline after the value.
    var finalNewline: Bool

    /// A layout; the default is compact without a final newline.
    init(lines: Lines = .compact, finalNewline: Bool = false) {
        self.lines = lines
        self.finalNewline = finalNewline
    }

    /// No whitespace, no final newline: how version 1 cassettes replayed every inline body.
    static let compact = JSONLayout()

    /// `value` written in this layout.
    func render(_ value: CassetteJSON, capacity: Int = 256) -> [UInt8] {
        var bytes = JSONWriter.write(value, style: style, capacity: capacity)
        if finalNewline { bytes.append(UInt8(ascii: "\n")) }
        return bytes
    }

    private var style: JSONWriter.Style {
        switch lines {
        case .compact: .compact
        case .spaced: JSONWriter.Style(indent: nil, keySeparator: ": ", itemSeparator: ", ", emptyOnOneLine: true)
        case .indentedBySpaces(let count):
            JSONWriter.Style(indent: Array(repeating: UInt8(ascii: " "), count: count), keySeparator: ": ", itemSeparator: ",", emptyOnOneLine: true)
        case .indentedByTabs:
            JSONWriter.Style(indent: [UInt8(ascii: "\t")], keySeparator: ": ", itemSeparator: ",", emptyOnOneLine: true)
        }
    }

    /// The layout that renders `value`, parsed from `bytes`, back to exactly `bytes`; `nil` when none does.
    static func reproducing(_ bytes: Data, from value: CassetteJSON) -> JSONLayout? {
        candidates(for: bytes).first { $0.render(value, capacity: bytes.count).elementsEqual(bytes) }
    }

    /// The layouts `bytes` may use, judged from their whitespace, most likely first; whether one really
    /// reproduces them is for the caller to check by rendering.
    static func candidates(for bytes: some BidirectionalCollection<UInt8>) -> [JSONLayout] {
        let finalNewline = bytes.last == UInt8(ascii: "\n")
        // Outside strings a raw newline can only be layout (inside, JSON requires it escaped).
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")), bytes.index(after: newline) != bytes.endIndex else {
            return [JSONLayout(lines: .compact, finalNewline: finalNewline), JSONLayout(lines: .spaced, finalNewline: finalNewline)]
        }
        let indent = bytes[bytes.index(after: newline)...].prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        if indent.first == UInt8(ascii: "\t") { return [JSONLayout(lines: .indentedByTabs, finalNewline: finalNewline)] }
        guard (1...16).contains(indent.count) else { return [] }
        return [JSONLayout(lines: .indentedBySpaces(indent.count), finalNewline: finalNewline)]
    }

    /// The name a cassette stores in `"layout"`.
    var name: String {
        switch lines {
        case .compact: "compact"
        case .spaced: "spaced"
        case .indentedBySpaces(let count): "indent-\(count)"
        case .indentedByTabs: "indent-tab"
        }
    }

    /// The lines named `name` in a cassette, or `nil` for an unknown name.
    static func lines(named name: String) -> Lines? {
        switch name {
        case "compact": return .compact
        case "spaced": return .spaced
        case "indent-tab": return .indentedByTabs
        default:
            guard name.hasPrefix("indent-"), let count = Int(name.dropFirst(7)), (1...16).contains(count),
                name == "indent-\(count)"
            else { return nil }
            return .indentedBySpaces(count)
        }
    }
}
