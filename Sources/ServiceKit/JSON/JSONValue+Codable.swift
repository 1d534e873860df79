import Foundation

extension JSONValue {
    /// Parses a UTF-8 JSON document (RFC 8259) in one pass, dropping every `null`. Returns `nil` when the
    /// whole document is `null`. Throws ``WebServiceError`` `.service(.undecodableBody)` when `data` is not
    /// JSON, with a ``JSONParseError`` saying where as its `underlyingError`. Containers may nest 128 deep.
    public static func parse(_ data: Data) throws(WebServiceError) -> JSONValue? {
        do {
            return try JSONDocument.parse(data).map { $0.value(at: 0) }
        } catch {
            throw .service(.undecodableBody, underlyingError: error)
        }
    }

    /// The compact UTF-8 encoding of the value, keys sorted and slashes unescaped, so equal values always
    /// encode to equal bytes.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: every case maps to a JSON primitive or container, and JSON
        // text from a parser never holds a non-finite double.
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }
}

extension JSONValue: Decodable {
    /// Decodes any JSON value, skipping `null` object values and array elements. A bare `null` throws
    /// `DecodingError.valueNotFound`; decode `JSONValue?` to accept one.
    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys {
                members[key.stringValue] = try object.decodeIfPresent(JSONValue.self, forKey: key)
            }
            self = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd {
                if try array.decodeNil() { continue }
                elements.append(try array.decode(JSONValue.self))
            }
            self = .array(elements)
        } else {
            let single = try decoder.singleValueContainer()
            if let string = try? single.decode(String.self) {
                self = .string(string)
            } else if let bool = try? single.decode(Bool.self) {
                self = .bool(bool)
            } else if let integer = try? single.decode(Int.self) {
                self = .integer(integer)
            } else {
                self = .double(try single.decode(Double.self))
            }
        }
    }
}

extension JSONValue: Encodable {
    /// Encodes the value as the JSON it stands for.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let string):
            var single = encoder.singleValueContainer()
            try single.encode(string)
        case .integer(let integer):
            var single = encoder.singleValueContainer()
            try single.encode(integer)
        case .double(let double):
            var single = encoder.singleValueContainer()
            try single.encode(double)
        case .bool(let bool):
            var single = encoder.singleValueContainer()
            try single.encode(bool)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements {
                try array.encode(element)
            }
        case .object(let members):
            var object = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, value) in members {
                try object.encode(value, forKey: AnyCodingKey(key))
            }
        }
    }
}

/// A coding key for arbitrary object keys and array positions.
struct AnyCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init(stringValue: String) {
        self.init(stringValue)
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
