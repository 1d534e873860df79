import Foundation
import ServiceReplayShared

/// The shape of a JSON document: for every path in it, the kinds of value found there, without the values.
///
/// The elements of an array share one path, ending `[*]` (see ``JSONPath``): a list of 30 users is one
/// shape, the union of its elements' shapes, not 30.
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
    package private(set) var kinds: [JSONPath: Set<Kind>] = [:]
    /// The paths of arrays that held at least one element somewhere, so that their elements' shape is known.
    package private(set) var arraysWithElements: Set<JSONPath> = []

    /// The shape of `value`.
    package init(_ value: CassetteJSON) {
        add(value, at: .root)
    }

    /// A shape with nothing at any path, to which values are added with ``add(_:at:)``.
    package init() {}

    /// A shape holding only `kind` at the root, such as ``Kind/text`` for event data that is not JSON.
    package init(root kind: Kind) {
        kinds[.root] = [kind]
    }

    /// Adds `value`'s shape at `path` (and below it) to this one.
    package mutating func add(_ value: CassetteJSON, at path: JSONPath) {
        switch value {
        case .null: kinds[path, default: []].insert(.null)
        case .bool: kinds[path, default: []].insert(.boolean)
        case .number: kinds[path, default: []].insert(.number)
        case .string: kinds[path, default: []].insert(.string)
        case .array(let elements):
            kinds[path, default: []].insert(.array)
            if !elements.isEmpty { arraysWithElements.insert(path) }
            let elementPath = path.appending(.anyIndex)
            for element in elements {
                add(element, at: elementPath)
            }
        case .object(let members):
            kinds[path, default: []].insert(.object)
            for (key, member) in members {
                add(member, at: path.appending(.key(key)))
            }
        }
    }

    /// The union of this shape and `other`.
    package mutating func formUnion(_ other: JSONShape) {
        for (path, found) in other.kinds { kinds[path, default: []].formUnion(found) }
        arraysWithElements.formUnion(other.arraysWithElements)
    }

    /// Whether this shape can say what is at `path`, which the other shape holds: the root, a member of a path
    /// that held an object here, or the elements of an array that held at least one here.
    func isKnownPlace(_ path: JSONPath) -> Bool {
        guard let parent = path.parent else { return true }
        if path.components.last == .anyIndex { return arraysWithElements.contains(parent) }
        return kinds[parent]?.contains(.object) == true
    }
}
