import ServiceReplayShared

extension CassetteJSON {
    /// The value at `path`, or `nil` when a step is missing.
    func value(at path: JSONPath) -> CassetteJSON? {
        var current = self
        for component in path.components {
            switch component {
            case .key(let key): guard let next = current[key] else { return nil }; current = next
            case .index(let index): guard let next = current[index] else { return nil }; current = next
            case .anyIndex: return nil
            }
        }
        return current
    }

    /// Replaces the value at `path`; `false` (and no change) when a step is missing.
    mutating func replace(at path: ArraySlice<JSONPath.Component>, with replacement: CassetteJSON) -> Bool {
        guard let first = path.first else {
            self = replacement
            return true
        }
        switch (self, first) {
        case (.object(var members), .key(let key)):
            guard var member = members[key] else { return false }
            let done = member.replace(at: path.dropFirst(), with: replacement)
            members[key] = member
            self = .object(members)
            return done
        case (.array(var elements), .index(let index)):
            guard elements.indices.contains(index) else { return false }
            let done = elements[index].replace(at: path.dropFirst(), with: replacement)
            self = .array(elements)
            return done
        default:
            return false
        }
    }

    /// Removes the value at `path` (every element for a `[*]` step); a path that leads nowhere changes nothing.
    mutating func leaveOut(_ path: ArraySlice<JSONPath.Component>) {
        guard let first = path.first else { return }
        let last = path.count == 1
        switch (self, first) {
        case (.object(var members), .key(let key)):
            guard var member = members[key] else { return }
            if last {
                members[key] = nil
            } else {
                member.leaveOut(path.dropFirst())
                members[key] = member
            }
            self = .object(members)
        case (.array(var elements), .index(let index)):
            guard elements.indices.contains(index) else { return }
            if last { elements.remove(at: index) } else { elements[index].leaveOut(path.dropFirst()) }
            self = .array(elements)
        case (.array(var elements), .anyIndex):
            if last {
                elements.removeAll()
            } else {
                for index in elements.indices { elements[index].leaveOut(path.dropFirst()) }
            }
            self = .array(elements)
        default:
            return
        }
    }

    /// Every path whose value is a string containing `text`, with that string; object keys visited in sorted order.
    func strings(containing text: String, under prefix: JSONPath = .root) -> [(path: JSONPath, string: String)] {
        switch self {
        case .string(let string) where string.contains(text):
            return [(prefix, string)]
        case .object(let members):
            return members.keys.sorted().flatMap { members[$0]!.strings(containing: text, under: prefix.appending(.key($0))) }
        case .array(let elements):
            return elements.enumerated().flatMap { $0.element.strings(containing: text, under: prefix.appending(.index($0.offset))) }
        default:
            return []
        }
    }
}
