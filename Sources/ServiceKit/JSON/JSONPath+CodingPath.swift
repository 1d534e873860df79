import ServiceReplayShared

extension JSONPath {
    /// The path a `Codable` coding path names: integer keys are array indices, the rest object keys
    /// (`$.items[3].owner`).
    init(codingPath: [any CodingKey]) {
        self.init(components: codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) })
    }
}
