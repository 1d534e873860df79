/// Decodes the HTML character references Stack Exchange leaves in titles and names: numeric ones
/// (`&#39;`, `&#x27;`) and the common named ones. An unknown or malformed reference is left as written.
enum HTMLEntities {
    private static let named: [String: Character] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}", "hellip": "…",
        "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "laquo": "«",
        "raquo": "»", "copy": "©", "reg": "®", "trade": "™", "deg": "°", "times": "×", "middot": "·",
        "eacute": "é", "egrave": "è", "agrave": "à", "ccedil": "ç", "uuml": "ü", "ouml": "ö", "auml": "ä",
    ]

    /// The longest reference name worth scanning for; keeps a stray `&` from scanning the whole text.
    private static let maxReferenceLength = 10

    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            guard text[index] == "&", let (character, end) = reference(in: text, at: index) else {
                output.append(text[index])
                index = text.index(after: index)
                continue
            }
            output.append(character)
            index = end
        }
        return output
    }

    /// The character a reference starting at `start` (an `&`) stands for, and the index after its `;`.
    private static func reference(in text: String, at start: String.Index) -> (Character, String.Index)? {
        let rest = text[text.index(after: start)...].prefix(maxReferenceLength + 1)
        guard let semicolon = rest.firstIndex(of: ";") else { return nil }
        let name = rest[..<semicolon]
        let end = text.index(after: semicolon)
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { (Character($0), end) }
        }
        if name.hasPrefix("#") {
            return UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init).map { (Character($0), end) }
        }
        return named[String(name)].map { ($0, end) }
    }
}
