import Foundation

/// Blanks the content of named XML elements, for ``MatchRules/ignoredXMLElements``: an Azure block list's
/// `<Latest>` IDs, drawn afresh on every upload, then compare equal. A scan over the bytes, not a parser: the
/// element is found by its tags (`<Latest>`, `<Latest attr="…">`, `<ns:Latest>`), its content runs to the
/// matching close tag (nested elements of the same name counted), and a self-closing element has none.
enum XMLElementContent {
    /// `data` with the content of every element named in `names` (local names) removed; `data` itself when it
    /// does not start, after white space, with `<`.
    static func blanking(_ names: [String], in data: Data) -> Data {
        let bytes = [UInt8](data)
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), bytes[first] == UInt8(ascii: "<") else { return data }
        let wanted = Set(names.map { [UInt8]($0.utf8) })
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<"), let tag = Tag(bytes, at: index), !tag.isClosing, !tag.isSelfClosing,
                wanted.contains(tag.localName)
            else {
                output.append(bytes[index])
                index += 1
                continue
            }
            // Copy the open tag, skip to the matching close tag.
            output += bytes[index..<tag.end]
            guard let close = matchingClose(of: tag, in: bytes) else {
                output += bytes[tag.end...]
                break
            }
            index = close
        }
        return Data(output)
    }

    /// Where the close tag matching `open` starts, counting nested elements of the same qualified name.
    private static func matchingClose(of open: Tag, in bytes: [UInt8]) -> Int? {
        var depth = 0
        var index = open.end
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "<"), let tag = Tag(bytes, at: index), tag.name == open.name {
                if tag.isClosing {
                    if depth == 0 { return index }
                    depth -= 1
                } else if !tag.isSelfClosing {
                    depth += 1
                }
                index = tag.end
            } else {
                index += 1
            }
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// A start, end or empty-element tag at `<`.
    private struct Tag {
        /// The qualified name, prefix included.
        let name: ArraySlice<UInt8>
        let isClosing: Bool
        let isSelfClosing: Bool
        /// Just past `>`.
        let end: Int

        var localName: [UInt8] {
            guard let colon = name.lastIndex(of: UInt8(ascii: ":")) else { return Array(name) }
            return Array(name[(colon + 1)...])
        }

        init?(_ bytes: [UInt8], at start: Int) {
            var index = start + 1
            isClosing = index < bytes.count && bytes[index] == UInt8(ascii: "/")
            if isClosing { index += 1 }
            let nameStart = index
            while index < bytes.count, !XMLElementContent.isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">"),
                bytes[index] != UInt8(ascii: "/")
            {
                index += 1
            }
            guard index > nameStart, bytes[nameStart] != UInt8(ascii: "!"), bytes[nameStart] != UInt8(ascii: "?") else { return nil }
            name = bytes[nameStart..<index]
            guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            isSelfClosing = close > start && bytes[close - 1] == UInt8(ascii: "/")
            end = close + 1
        }
    }
}
