/// A GraphQL document as matching compares it: the text with its ignored tokens (whitespace, commas, comments,
/// a byte-order mark) dropped, keeping one space only where two names or numbers would otherwise run together,
/// and strings (block strings too) kept byte for byte. So `query  Viewer { login, name } # mine` and
/// `query Viewer{login name}` compare equal, as a GraphQL server reads them the same. Shared by MockServer's
/// matching and ServiceKit's ``GraphQLService`` defaults.
package enum GraphQLDocument {
    /// `text` with its ignored tokens dropped (see the type's comment). Not a validating parser: text that is not
    /// GraphQL still comes out deterministically, so two equal texts always normalize equally.
    package static func normalized(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var bytes = Array(text.utf8)
        // A byte-order mark is an ignored token too.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var index = 0
        var pendingSpace = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ","):
                pendingSpace = true
                index += 1
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n"), bytes[index] != UInt8(ascii: "\r") { index += 1 }
                pendingSpace = true
            case UInt8(ascii: "\""):
                // A string needs no space before it: a lexer ends a name at its quote.
                let end = stringEnd(in: bytes, from: index)
                output.append(contentsOf: bytes[index..<end])
                pendingSpace = false
                index = end
            default:
                if pendingSpace, let last = output.last, isNameByte(last), isNameByte(byte) { output.append(UInt8(ascii: " ")) }
                pendingSpace = false
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The index just past the string starting at `start` (a `"`): a block string `"""…"""` (where `\"""` is
    /// escaped) or a plain string with `\` escapes, ending at its closing quote, else at the end of the line
    /// (an unterminated string ends there, as a lexer would report it).
    private static func stringEnd(in bytes: [UInt8], from start: Int) -> Int {
        let quote = UInt8(ascii: "\"")
        if start + 2 < bytes.count, bytes[start + 1] == quote, bytes[start + 2] == quote {
            var index = start + 3
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "\\"), index + 3 < bytes.count, bytes[(index + 1)...(index + 3)].allSatisfy({ $0 == quote }) {
                    index += 4
                } else if bytes[index] == quote, index + 2 < bytes.count, bytes[index + 1] == quote, bytes[index + 2] == quote {
                    return index + 3
                } else {
                    index += 1
                }
            }
            return bytes.count
        }
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case quote: return index + 1
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"): return index
            default: index += 1
            }
        }
        return bytes.count
    }

    /// Whether `text` is a GraphQL name, as an operation's: letters, digits and `_`, not starting with a digit.
    package static func isName(_ text: String) -> Bool {
        guard let first = text.utf8.first, !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) else { return false }
        return text.utf8.allSatisfy(isNameByte)
    }

    /// Letters, digits and `_`: the bytes of names and numbers, which need a space between two tokens.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }

    /// Whether `text` reads as a GraphQL executable document: it starts (after ignored tokens) with `{` or with
    /// the keyword `query`, `mutation`, `subscription` or `fragment`. A search API's `?query=shoes` does not.
    package static func looksLikeDocument(_ text: String) -> Bool {
        let normalized = normalized(String(text.prefix(64)))
        if normalized.hasPrefix("{") { return true }
        for keyword in ["query", "mutation", "subscription", "fragment"] where normalized.hasPrefix(keyword) {
            let rest = normalized.utf8.dropFirst(keyword.utf8.count)
            guard let next = rest.first else { return false }
            return next == UInt8(ascii: " ") || next == UInt8(ascii: "{") || next == UInt8(ascii: "(") || next == UInt8(ascii: "@")
        }
        return false
    }

    /// One operation a document defines: its type (`query`, `mutation` or `subscription`; a shorthand `{ … }` is
    /// a query) and its name, `nil` when anonymous.
    package struct Operation: Equatable, Sendable {
        /// `query`, `mutation` or `subscription`.
        package let type: String
        /// The operation's name; `nil` when anonymous.
        package let name: String?
    }

    /// The operations `text` defines, in order, fragments left out: `query Viewer {…} mutation {…}` gives
    /// `Viewer` (a query) and an anonymous mutation. Strings and nested selections are skipped by depth, so only
    /// a keyword at the top level starts a definition.
    package static func operations(in text: String) -> [Operation] {
        operations(inNormalized: normalized(text))
    }

    /// ``operations(in:)`` of a text ``normalized(_:)`` gave already, so that it is not normalized twice.
    package static func operations(inNormalized text: String) -> [Operation] {
        let bytes = Array(text.utf8)
        var found: [Operation] = []
        var depth = 0
        // Whether a top-level keyword (an operation's or a fragment's) was read and its selection set is next: a
        // `{` at the top level without one is a shorthand query.
        var definitionOpen = false
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                if depth == 0 {
                    if !definitionOpen { found.append(Operation(type: "query", name: nil)) }
                    definitionOpen = false
                }
                depth += 1
                index += 1
            case UInt8(ascii: "("):
                depth += 1
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: ")"):
                depth -= 1
                index += 1
            case UInt8(ascii: "\""):
                index = stringEnd(in: bytes, from: index)
            case let byte where depth == 0 && isNameByte(byte):
                var end = index
                while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
                let keyword = String(decoding: bytes[index..<end], as: UTF8.self)
                index = end
                guard !definitionOpen else { continue }
                if keyword == "fragment" {
                    definitionOpen = true
                } else if keyword == "query" || keyword == "mutation" || keyword == "subscription" {
                    definitionOpen = true
                    var nameStart = index
                    if nameStart < bytes.count, bytes[nameStart] == UInt8(ascii: " ") { nameStart += 1 }
                    var nameEnd = nameStart
                    while nameEnd < bytes.count, isNameByte(bytes[nameEnd]) { nameEnd += 1 }
                    let name = nameEnd > nameStart ? String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self) : nil
                    found.append(Operation(type: keyword, name: name))
                    index = nameEnd
                }
            default:
                index += 1
            }
        }
        return found
    }

    /// The name of the first operation `text` defines (`query Viewer {…}` gives `Viewer`); `nil` when it is
    /// anonymous (`{ viewer { login } }`, `query { … }`) or defines none.
    package static func firstOperationName(in text: String) -> String? {
        operations(in: text).first?.name
    }
}
