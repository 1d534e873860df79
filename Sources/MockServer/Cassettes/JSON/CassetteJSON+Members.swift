extension CassetteJSON {
    /// An object's members in the order they were written or added, with lookup by key.
    ///
    /// Order is kept so that a recorded JSON body renders back in the upstream's key order; equality and
    /// hashing ignore it, because JSON objects are unordered. Keys are unique: adding an existing key replaces
    /// its value in place.
    public struct Members: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
        /// One member: its key and value.
        public typealias Element = (key: String, value: CassetteJSON)

        private var entries: [Element]
        private var positions: [String: Int]

        /// No members.
        public init() {
            entries = []
            positions = [:]
        }

        /// The members of `dictionary`, ordered by the UTF-8 bytes of their keys (so the result is the same
        /// on every run).
        public init(_ dictionary: [String: CassetteJSON]) {
            self.init()
            entries.reserveCapacity(dictionary.count)
            for (key, value) in dictionary.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                positions[key] = entries.count
                entries.append((key, value))
            }
        }

        /// The literal's members in the literal's order; a repeated key keeps its first position and last value.
        public init(dictionaryLiteral elements: (String, CassetteJSON)...) {
            self.init()
            for (key, value) in elements { self[key] = value }
        }

        /// The number of members.
        public var count: Int { entries.count }

        /// Whether there are no members.
        public var isEmpty: Bool { entries.isEmpty }

        /// The keys in order.
        public var keys: [String] { entries.map(\.key) }

        /// The value for `key`, or `nil`. Setting a value replaces an existing one in place or appends a new
        /// member; setting `nil` removes the member.
        public subscript(key: String) -> CassetteJSON? {
            get { positions[key].map { entries[$0].value } }
            set {
                if let newValue {
                    updateValue(newValue, forKey: key)
                } else {
                    removeValue(forKey: key)
                }
            }
        }

        /// Sets `value` for `key` (in place when present, else appended) and returns the value it replaced.
        @discardableResult
        public mutating func updateValue(_ value: CassetteJSON, forKey key: String) -> CassetteJSON? {
            if let position = positions[key] {
                let old = entries[position].value
                entries[position].value = value
                return old
            }
            positions[key] = entries.count
            entries.append((key, value))
            return nil
        }

        /// Removes the member named `key` and returns its value, or `nil` when there was none.
        @discardableResult
        public mutating func removeValue(forKey key: String) -> CassetteJSON? {
            guard let position = positions.removeValue(forKey: key) else { return nil }
            let removed = entries.remove(at: position).value
            for index in position..<entries.count { positions[entries[index].key] = index }
            return removed
        }

        /// The same keys in the same order with each value transformed.
        public func mapValues(_ transform: (CassetteJSON) throws -> CassetteJSON) rethrows -> Members {
            var result = self
            for index in result.entries.indices { result.entries[index].value = try transform(result.entries[index].value) }
            return result
        }

        /// Iterates the members in order.
        public func makeIterator() -> IndexingIterator<[Element]> {
            entries.makeIterator()
        }

        /// Equal when both hold the same keys with equal values, in any order.
        public static func == (lhs: Members, rhs: Members) -> Bool {
            guard lhs.entries.count == rhs.entries.count else { return false }
            for entry in lhs.entries {
                guard let other = rhs[entry.key], other == entry.value else { return false }
            }
            return true
        }

        /// Hashes the members without regard to their order, consistent with `==`.
        public func hash(into hasher: inout Hasher) {
            var combined = 0
            for entry in entries {
                var memberHasher = Hasher()
                memberHasher.combine(entry.key)
                memberHasher.combine(entry.value)
                combined ^= memberHasher.finalize()
            }
            hasher.combine(entries.count)
            hasher.combine(combined)
        }
    }
}
