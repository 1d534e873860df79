import Foundation

/// A position in a parsed JSON document: the value found there (if any) and the key path that led to it.
/// This is what a service's mapping reads.
///
/// Subscripts never fail: `json["items"][3]["owner"]` is simply absent when any step is. Reading is
/// lenient and optional (``string``, ``int``, ``bool``, ...), or strict through ``required``, which throws a
/// service-level ``WebServiceError`` naming the full key path (`.missingField("$.items[3].owner.display_name")`).
///
/// A response's JSON is read straight from its bytes: a value costs something only when it is read.
/// `json[3]` walks the array to its fourth element, so go through a long array with ``array`` instead.
public struct JSON: Sendable {
    /// Where the value lives: a ``JSONValue`` built in code, or an entry of a parsed response's tape.
    enum Node: Sendable {
        case absent
        case value(JSONValue)
        case document(JSONDocument, Int)
    }

    let node: Node
    // The path is kept as the parent's path plus the last step, so that reading a member builds no path
    // until someone asks for it (an error message, a nested position).
    private let parentPath: JSONPath
    private let lastStep: JSONPath.Component?

    /// A position holding `value`, reached by `path` (the root by default).
    public init(_ value: JSONValue?, path: JSONPath = .root) {
        self.init(value.map(Node.value) ?? .absent, parentPath: path, lastStep: nil)
    }

    init(_ node: Node, parentPath: JSONPath, lastStep: JSONPath.Component?) {
        self.node = node
        self.parentPath = parentPath
        self.lastStep = lastStep
    }

    /// The root of a parsed document.
    init(document: JSONDocument) {
        self.init(.document(document, 0), parentPath: .root, lastStep: nil)
    }

    /// The value at this position; `nil` when absent (never present in the document, or `null`, which
    /// parsing drops). For a parsed response the value is built from the bytes on each call: read through
    /// the accessors instead when only some fields matter.
    public var value: JSONValue? {
        switch node {
        case .absent: nil
        case .value(let value): value
        case .document(let document, let index): document.value(at: index)
        }
    }

    /// How this position was reached from the document's root.
    public var path: JSONPath {
        lastStep.map { parentPath.appending($0) } ?? parentPath
    }

    /// The member `key` of an object; absent when this is not an object or has no such member.
    public subscript(key: String) -> JSON {
        var member = Node.absent
        switch node {
        case .value(.object(let members)):
            member = members[key].map(Node.value) ?? .absent
        case .document(let document, let index) where document.tape[index].kind == .object:
            member = document.member(key, ofObjectAt: index).map { .document(document, $0) } ?? .absent
        default:
            break
        }
        return JSON(member, parentPath: path, lastStep: .key(key))
    }

    /// The element at `index` of an array; absent when this is not an array or `index` is out of range.
    public subscript(index: Int) -> JSON {
        var element = Node.absent
        switch node {
        case .value(.array(let elements)) where elements.indices.contains(index):
            element = .value(elements[index])
        case .document(let document, let array)
        where document.tape[array].kind == .array
            && (0..<document.tape[array].count).contains(index):
            var position = array + 1
            for _ in 0..<index {
                position = document.next(after: position)
            }
            element = .document(document, position)
        default:
            break
        }
        return JSON(element, parentPath: path, lastStep: .index(index))
    }

    /// Whether a value is present here.
    public var exists: Bool {
        if case .absent = node {
            return false
        }
        return true
    }

    /// The throwing view: each accessor returns the value or throws `.missingField` / `.invalidField`.
    public var required: RequiredJSON { RequiredJSON(json: self) }

    /// The value when it is a string, number or boolean; `nil` when absent or a container. Cheap for a
    /// parsed response: only this one value is decoded.
    var scalar: JSONValue? {
        switch node {
        case .absent: nil
        case .value(.array), .value(.object): nil
        case .value(let value): value
        case .document(let document, let index): document.scalar(at: index)
        }
    }

    /// Whether the value here is an object.
    var isObject: Bool {
        switch node {
        case .value(.object): true
        case .document(let document, let index): document.tape[index].kind == .object
        default: false
        }
    }

    /// The same position with its path built now, for a position whose members will be read: they then
    /// share it instead of each building it again.
    var settled: JSON {
        lastStep == nil ? self : JSON(node, parentPath: path, lastStep: nil)
    }
}
