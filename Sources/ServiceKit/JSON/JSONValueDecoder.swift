import Foundation

/// A `Decoder` over an already parsed ``JSONValue``, so `Decodable` responses share the single parse with
/// error detection. Primitives are read with ``JSON``'s lenient accessors and failures are reported as
/// ``WebServiceError`` with our key-path format.
struct JSONValueDecoder: Decoder {
    let json: JSON
    let dateFormat: DateFormat

    var codingPath: [any CodingKey] {
        json.path.components.map { component in
            switch component {
            case .key(let key): AnyCodingKey(key)
            case .index(let index): AnyCodingKey(intValue: index)
            // Only a shape's path holds one; a position's path is made of keys and indices.
            case .anyIndex: AnyCodingKey("*")
            }
        }
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard json.isObject else {
            throw WebServiceError.service(
                json.exists
                    ? .invalidField(json.path.description)
                    : .missingField(json.path.description))
        }
        return KeyedDecodingContainer(KeyedJSONContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        UnkeyedJSONContainer(decoder: self, elements: try json.required.array)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleJSONContainer(decoder: self)
    }

    /// Decodes `type` at `position`: the types whose own `Decodable` conformance does not match JSON
    /// (`Date`, `URL`) and the primitives are read directly, everything else through its `init(from:)`.
    func unbox<Value: Decodable>(_ type: Value.Type, at position: JSON) throws -> Value {
        let required = position.required
        switch type {
        case is String.Type: return try required.string as! Value
        case is Bool.Type: return try required.bool as! Value
        case is Int.Type: return try required.int as! Value
        case is Double.Type: return try required.double as! Value
        case is Float.Type: return Float(try required.double) as! Value
        case is Date.Type: return try required.date(dateFormat) as! Value
        case is URL.Type: return try required.url as! Value
        case is JSONValue.Type:
            // Already parsed: hand over the value as is, not re-read leniently as a string or number.
            guard let value = position.value else {
                throw WebServiceError.service(.missingField(position.path.description))
            }
            return value as! Value
        default:
            if let integerType = type as? any FixedWidthInteger.Type {
                return try Self.integer(integerType, at: position) as! Value
            }
            return try Value(from: JSONValueDecoder(json: position.settled, dateFormat: dateFormat))
        }
    }

    private static func integer<Integer: FixedWidthInteger>(_ type: Integer.Type, at position: JSON) throws -> Integer {
        guard let integer = Integer(exactly: try position.required.int) else {
            throw WebServiceError.service(.invalidField(position.path.description))
        }
        return integer
    }
}

/// Reads one value; `decodeNil` is true when the value is absent (JSON null is dropped at parse time).
private struct SingleJSONContainer: SingleValueDecodingContainer {
    let decoder: JSONValueDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { !decoder.json.exists }

    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try decoder.unbox(type, at: decoder.json)
    }
}
