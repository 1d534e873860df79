import Foundation

/// The members of an object. A missing key throws `.missingField` with the member's full key path.
struct KeyedJSONContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: JSONValueDecoder
    let members: [String: JSON]

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    func decodeNil(forKey key: Key) -> Bool { members[key.stringValue] == nil }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        try decoder.unbox(type, at: member(key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
        throws -> KeyedDecodingContainer<NestedKey> {
        try nested(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try nested(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try nested(AnyCodingKey("super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try nested(key)
    }

    private func member(_ key: some CodingKey) -> JSON {
        members[key.stringValue] ?? JSON(nil, path: decoder.json.path.appending(.key(key.stringValue)))
    }

    private func nested(_ key: some CodingKey) throws -> JSONValueDecoder {
        JSONValueDecoder(json: member(key), dateFormat: decoder.dateFormat)
    }
}

/// The elements of an array, read in order. Reading past the end throws `.missingField` for that index.
struct UnkeyedJSONContainer: UnkeyedDecodingContainer {
    let decoder: JSONValueDecoder
    let elements: [JSON]
    private(set) var currentIndex = 0

    init(decoder: JSONValueDecoder, elements: [JSON]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    // JSON nulls are dropped when parsing, so an element is never nil.
    mutating func decodeNil() -> Bool { false }

    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        let value = try decoder.unbox(type, at: next())
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type)
        throws -> KeyedDecodingContainer<NestedKey> {
        let container = try JSONValueDecoder(json: next(), dateFormat: decoder.dateFormat).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try JSONValueDecoder(json: next(), dateFormat: decoder.dateFormat).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let superDecoder = JSONValueDecoder(json: next(), dateFormat: decoder.dateFormat)
        currentIndex += 1
        return superDecoder
    }

    private func next() -> JSON {
        isAtEnd ? JSON(nil, path: decoder.json.path.appending(.index(currentIndex))) : elements[currentIndex]
    }
}
