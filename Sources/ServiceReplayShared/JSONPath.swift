/// Where a value sits in a JSON document, spelled the same in every report and error of this package:
/// `$` for the document itself, `.name` for a member, `[3]` for an array element counted from zero, and
/// `[*]` for every element of an array at once, as in `$.items[3].owner.display_name`.
///
/// A member name is written after a dot when it is a plain name as RFC 9535 defines one: a letter, `_` or a
/// non-ASCII character, then any of those or digits. Any other name is written in brackets as a JSON
/// string, as in `$["content-type"]` or `$["2fa"]`.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    /// One step into a document.
    package enum Component: Hashable, Sendable {
        /// A member of an object.
        case key(String)
        /// An element of an array, counted from zero.
        case index(Int)
        /// Every element of an array: a shape's path, which all the elements share.
        case anyIndex
    }

    /// The steps from the document's root, in order.
    package let components: [Component]

    /// The document itself, written `$`.
    public static let root = JSONPath(components: [])

    /// A path made of `components`.
    package init(components: [Component]) {
        self.components = components
    }

    /// This path followed by one more step.
    package func appending(_ component: Component) -> JSONPath {
        JSONPath(components: components + [component])
    }

    /// The path that holds this one, or `nil` for the root.
    package var parent: JSONPath? {
        components.isEmpty ? nil : JSONPath(components: components.dropLast())
    }

    /// The path in the one spelling described above, such as `$.items[3].owner` or `$["odd key"][*]`.
    public var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .key(let key) where Self.isPlainName(key):
                text += "." + key
            case .key(let key):
                text += "[" + Self.quoted(key) + "]"
            case .index(let index):
                text += "[\(index)]"
            case .anyIndex:
                text += "[*]"
            }
        }
        return text
    }

    /// Whether `key` can follow a dot: RFC 9535's member-name-shorthand.
    private static func isPlainName(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, isNameFirst(first) else { return false }
        return key.unicodeScalars.allSatisfy { isNameFirst($0) || ("0"..."9").contains($0) }
    }

    private static func isNameFirst(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || !scalar.isASCII
    }

    /// `key` as a JSON string literal: quotes, backslashes and control characters escaped.
    private static func quoted(_ key: String) -> String {
        var text = "\""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
