import Foundation

/// The members of an object, looked up as they are asked for. A missing key throws `.missingField` with
/// the member's full key path.
struct KeyedJSONContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// The decoder of the object itself.
    let decoder: JSONValueDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] { (decoder.json.object ?? [:]).keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { member(key).exists }

    func decodeNil(forKey key: Key) -> Bool { !member(key).exists }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        try decoder.unbox(type, at: member(key))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    )
        throws -> KeyedDecodingContainer<NestedKey>
    {
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
        decoder.json[key.stringValue]
    }

    private func nested(_ key: some CodingKey) throws -> JSONValueDecoder {
        JSONValueDecoder(json: member(key).settled, dateFormat: decoder.dateFormat)
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

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    )
        throws -> KeyedDecodingContainer<NestedKey>
    {
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
