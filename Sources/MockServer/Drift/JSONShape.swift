import Foundation

/// The shape of a JSON document: for every path in it, the kinds of value found there, without the values.
///
/// Paths are written `$` for the root, `.name` (or `["odd name"]`) for an object's member and `[*]` for the
/// elements of an array, so every element of an array shares one path: a list of 30 users is one shape, the
/// union of its elements' shapes, not 30.
package struct JSONShape: Sendable, Hashable {
    /// The kind of a JSON value, as the drift report names it.
    package enum Kind: String, Sendable, Hashable, Comparable, CaseIterable {
        case object, array, string, number, boolean, null
        /// Data of a server-sent event that is not JSON at all.
        case text

        package static func < (lhs: Kind, rhs: Kind) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// The kinds found at each path.
    package private(set) var kinds: [String: Set<Kind>] = [:]
    /// The paths of arrays that held at least one element somewhere, so that their elements' shape is known.
    package private(set) var arraysWithElements: Set<String> = []
    /// The path holding each path but the root (kept, not parsed back, because keys may hold any character).
    private var parents: [String: String] = [:]

    /// The shape of `value`.
    package init(_ value: CassetteJSON) {
        add(value, at: "$")
    }

    /// A shape with nothing at any path, to which values are added with ``add(_:at:)``.
    package init() {}

    /// A shape holding only `kind` at the root, such as ``Kind/text`` for event data that is not JSON.
    package init(root kind: Kind) {
        kinds["$"] = [kind]
    }

    /// Adds `value`'s shape at `path` (and below it) to this one.
    package mutating func add(_ value: CassetteJSON, at path: String) {
        switch value {
        case .null: kinds[path, default: []].insert(.null)
        case .bool: kinds[path, default: []].insert(.boolean)
        case .number: kinds[path, default: []].insert(.number)
        case .string: kinds[path, default: []].insert(.string)
        case .array(let elements):
            kinds[path, default: []].insert(.array)
            if !elements.isEmpty { arraysWithElements.insert(path) }
            for element in elements {
                parents[path + "[*]"] = path
                add(element, at: path + "[*]")
            }
        case .object(let members):
            kinds[path, default: []].insert(.object)
            for (key, member) in members {
                let memberPath = Self.path(path, member: key)
                parents[memberPath] = path
                add(member, at: memberPath)
            }
        }
    }

    /// The union of this shape and `other`.
    package mutating func formUnion(_ other: JSONShape) {
        for (path, found) in other.kinds { kinds[path, default: []].formUnion(found) }
        arraysWithElements.formUnion(other.arraysWithElements)
        parents.merge(other.parents) { first, _ in first }
    }

    /// `parent.key`, or `parent["key"]` when the key is not a plain identifier.
    package static func path(_ parent: String, member key: String) -> String {
        let plain =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_" || $0 == "-") }
        guard plain else {
            let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return parent + "[\"" + escaped + "\"]"
        }
        return parent + "." + key
    }

    /// The path that holds `path`, or `nil` for the root.
    func parent(of path: String) -> String? { parents[path] }

    /// Whether this shape can say what is at `path`, which the other shape holds under `parent`: the root,
    /// a member of a path that held an object here, or the elements of an array that held at least one here.
    func isKnownPlace(_ path: String, parent: String?) -> Bool {
        guard let parent else { return true }
        if path == parent + "[*]" { return arraysWithElements.contains(parent) }
        return kinds[parent]?.contains(.object) == true
    }
}
