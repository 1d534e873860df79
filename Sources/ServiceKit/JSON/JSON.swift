import Foundation

/// A position in a parsed JSON document: the value found there (if any) and the key path that led to it.
/// This is what a service's mapping reads.
///
/// Subscripts never fail: `json["items"][3]["owner"]` is simply absent when any step is. Reading is
/// lenient and optional (``string``, ``int``, ``bool``, ...), or strict through ``required``, which throws a
/// service-level ``WebServiceError`` naming the full key path (`.missingField("items[3].owner.display_name")`).
public struct JSON: Sendable {
    /// The value at this position; `nil` when absent (never present in the document, or `null`, which
    /// parsing drops).
    public let value: JSONValue?
    /// How this position was reached from the document's root.
    public let path: JSONPath

    /// A position holding `value`, reached by `path` (the root by default).
    public init(_ value: JSONValue?, path: JSONPath = .root) {
        self.value = value
        self.path = path
    }

    /// The member `key` of an object; absent when this is not an object or has no such member.
    public subscript(key: String) -> JSON {
        var member: JSONValue?
        if case .object(let members)? = value {
            member = members[key]
        }
        return JSON(member, path: path.appending(.key(key)))
    }

    /// The element at `index` of an array; absent when this is not an array or `index` is out of range.
    public subscript(index: Int) -> JSON {
        var element: JSONValue?
        if case .array(let elements)? = value, elements.indices.contains(index) {
            element = elements[index]
        }
        return JSON(element, path: path.appending(.index(index)))
    }

    /// Whether a value is present here.
    public var exists: Bool { value != nil }

    /// The throwing view: each accessor returns the value or throws `.missingField` / `.invalidField`.
    public var required: RequiredJSON { RequiredJSON(json: self) }
}
