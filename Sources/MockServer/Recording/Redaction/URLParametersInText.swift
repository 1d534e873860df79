/// Query parameters of URLs written inside other text: a `Location` header, a JSON string, a text body, a
/// stream event. A presigned URL carries its signature there as much as in a request's own query (GitHub's
/// release downloads redirect to one; storage APIs return them in JSON).
///
/// A parameter is a name after `?`, `&` or `;` (so `&amp;` too), after `#` (OAuth's implicit grant returns
/// its token in the fragment) or after the JSON escape `\u0026`, then `=` and a value of URL characters; in
/// a percent-encoded URL (one carried in another URL's query) `%3F` or `%26`, then `%3D`, with the value
/// ending before the next `%26`. In JSON text a value may hold `\/`, the escaped slash many encoders write.
/// A word without `?`/`&` before it and `=` after it (`sig` in prose) is no parameter. Works on UTF-8
/// bytes; every byte looked for is ASCII, so cutting there keeps the text valid.
enum URLParametersInText {
    /// One parameter found: its name as written, where its value is, in UTF-8 byte offsets, and whether it is
    /// in a URL carried percent-encoded in another one.
    struct Parameter: Sendable, Hashable {
        let name: String
        let value: Range<Int>
        var isEncoded = false

        /// What replaces its value: the placeholder as URLs hold it (``Cassette/urlRedactionPlaceholder``),
        /// encoded once more in an encoded URL, whose `%` is written `%25`.
        var placeholder: String { isEncoded ? URLParametersInText.encodedPlaceholder : Cassette.urlRedactionPlaceholder }
    }

    /// ``Cassette/urlRedactionPlaceholder`` inside a URL that is itself percent-encoded.
    static let encodedPlaceholder = Cassette.urlRedactionPlaceholder.replacingOccurrences(of: "%", with: "%25")

    /// The parameters of `text` whose name `isSecret` accepts, in order; values that are empty or are the
    /// redaction placeholder (as written or percent-encoded) are left out, so a redacted text has none.
    static func parameters(in text: String, isSecret: (String) -> Bool) -> [Parameter] {
        let bytes = Array(text.utf8)
        var found: [Parameter] = []
        var index = 0
        while index < bytes.count {
            guard let separator = separatorLength(bytes, at: index) else {
                index += 1
                continue
            }
            let encoded = separator.encoded
            var cursor = index + separator.length
            let nameStart = cursor
            while cursor < bytes.count, isNameByte(bytes[cursor]) { cursor += 1 }
            let nameEnd = cursor
            guard nameEnd > nameStart, let equals = equalsLength(bytes, at: cursor, encoded: encoded) else {
                index = cursor
                continue
            }
            let valueStart = cursor + equals
            let name = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)
            guard isSecret(name) else {
                // Another parameter's value may be a whole URL, percent-encoded, with a signature of its own.
                index = valueStart
                continue
            }
            var valueEnd = valueStart
            while let length = valueLength(bytes, at: valueEnd, encoded: encoded) { valueEnd += length }
            index = valueEnd
            guard valueEnd > valueStart else { continue }
            let value = String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)
            let decoded = PercentDecoding.decode(value, plusAsSpace: false)
            guard decoded != Cassette.redactionPlaceholder, PercentDecoding.decode(decoded, plusAsSpace: false) != Cassette.redactionPlaceholder
            else { continue }
            found.append(Parameter(name: name, value: valueStart..<valueEnd, isEncoded: encoded))
        }
        return found
    }

    /// `text` with the value of every parameter ``parameters(in:isSecret:)`` finds replaced by the redaction
    /// placeholder as URLs hold it (``Parameter/placeholder``), every other byte kept, and how many were replaced.
    static func redacting(_ text: String, isSecret: (String) -> Bool) -> (text: String, count: Int) {
        let found = parameters(in: text, isSecret: isSecret)
        return (RedactionRules.replacing(found.map(\.value), in: text, with: found.map(\.placeholder)), found.count)
    }

    /// The separator starting at `index`: its length, and whether it is percent-encoded.
    private static func separatorLength(_ bytes: [UInt8], at index: Int) -> (length: Int, encoded: Bool)? {
        switch bytes[index] {
        case UInt8(ascii: "?"), UInt8(ascii: "&"), UInt8(ascii: ";"), UInt8(ascii: "#"):
            return (1, false)
        case UInt8(ascii: "\\") where matches(bytes, at: index, "\\u0026"):
            return (6, false)
        case UInt8(ascii: "%") where matches(bytes, at: index, "%3F") || matches(bytes, at: index, "%26"):
            return (3, true)
        default:
            return nil
        }
    }

    private static func equalsLength(_ bytes: [UInt8], at index: Int, encoded: Bool) -> Int? {
        if encoded { return matches(bytes, at: index, "%3D") ? 3 : nil }
        return index < bytes.count && bytes[index] == UInt8(ascii: "=") ? 1 : nil
    }

    /// How many bytes at `index` belong to a value, or `nil` at its end: one URL character, or `\/`
    /// (JSON's escaped slash); in a percent-encoded URL, `%26` (its `&`) and `%23` (its `#`) end it.
    private static func valueLength(_ bytes: [UInt8], at index: Int, encoded: Bool) -> Int? {
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        if byte == UInt8(ascii: "\\") { return matches(bytes, at: index, "\\/") ? 2 : nil }
        if encoded, matches(bytes, at: index, "%26") || matches(bytes, at: index, "%23") { return nil }
        return isValueByte(byte) ? 1 : nil
    }

    /// Whether `bytes` holds `literal` at `index`, ASCII letters compared without case (`%3d` is `%3D`).
    private static func matches(_ bytes: [UInt8], at index: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { lowercased(bytes[index + $0]) == lowercased(expected[$0]) }
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }

    /// The characters a signature or token is written with in a URL: unreserved ones, percent escapes, and
    /// the `+`, `/`, `=` of base64 and the `:`, `@`, `!`, `$`, `*` a query may hold as they are.
    private static func isValueByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "%"), UInt8(ascii: "+"),
            UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "!"), UInt8(ascii: "$"),
            UInt8(ascii: "*"):
            true
        default:
            false
        }
    }
}
