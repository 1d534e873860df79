/// Where a value sits in a JSON document, written the way a person reads it: `items[3].owner.display_name`.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    /// One step into a document.
    enum Component: Hashable, Sendable {
        /// A member of an object.
        case key(String)
        /// An element of an array, counted from zero.
        case index(Int)
    }

    /// The steps from the document's root, in order.
    let components: [Component]

    /// The document itself.
    public static let root = JSONPath(components: [])

    /// A path made of `components`.
    init(components: [Component]) {
        self.components = components
    }

    /// This path followed by one more step.
    func appending(_ component: Component) -> JSONPath {
        JSONPath(components: components + [component])
    }

    /// Keys joined by dots, indices in brackets (`items[3].owner.display_name`); the root reads `(root)`.
    public var description: String {
        guard !components.isEmpty else { return "(root)" }
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                text += text.isEmpty ? key : "." + key
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }
}
