@_spi(JSONScanning) import ServiceReplayShared

/// A strict RFC 8259 parser over UTF-8 bytes: no comments, no trailing commas, no duplicate keys, no
/// unpaired surrogates, nesting at most 512 deep. Numbers keep their literal text. The lexical checks are
/// `JSONScanner`'s, shared with ServiceKit's parser; this parser keeps the tree and the policy.
struct JSONParser {
    static let maximumDepth = 512

    private var scanner: JSONScanner
    private var depth = 0
    /// The top-level member whose array elements go to ``streamedElement`` instead of into the result.
    private var streamedKey: String?
    private var streamedElement: ((CassetteJSON) -> Void)?

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        scanner = JSONScanner(bytes: bytes, loneSurrogates: .refuse)
    }

    /// Parses a whole document: one value, optionally surrounded by whitespace and preceded by a UTF-8 BOM.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> CassetteJSON {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseDocument()
    }

    /// Parses a whole document like ``parse(_:)``, except that when the top level is an object, each element of
    /// its array member `key` is handed to `element` as soon as it is parsed instead of being kept (the member's
    /// value in the result is an empty array). A large document's elements then never all exist at once.
    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, streaming key: String,
        element: (CassetteJSON) -> Void
    ) throws(JSONParseError) -> CassetteJSON {
        let result: Result<CassetteJSON, JSONParseError> = withoutActuallyEscaping(element) { element in
            var parser = JSONParser(bytes: bytes)
            parser.streamedKey = key
            parser.streamedElement = element
            do throws(JSONParseError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private mutating func parseDocument() throws(JSONParseError) -> CassetteJSON {
        scanner.skipByteOrderMark()
        scanner.skipWhitespace()
        let value = try parseValue()
        scanner.skipWhitespace()
        guard scanner.isAtEnd else {
            throw scanner.failure("unexpected \(describeCurrent()) after the JSON value")
        }
        return value
    }

    /// A failure because the input ended inside the document.
    private func endOfInput(_ reason: String) -> JSONParseError {
        scanner.failure(reason, endsEarly: true)
    }

    private func describeCurrent() -> String {
        guard !scanner.isAtEnd else { return "end of input" }
        let byte = scanner.current
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private mutating func parseValue() throws(JSONParseError) -> CassetteJSON {
        guard !scanner.isAtEnd else { throw endOfInput("unexpected end of input, expected a value") }
        switch scanner.current {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try scanner.expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try scanner.expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try scanner.expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw scanner.failure("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let number = try scanner.scanNumber()
        return JSONNumber(trustedLiteral: String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[number.start..<number.end]), as: UTF8.self))
    }

    /// The string whose opening quote is at the scanner's index.
    private mutating func parseString() throws(JSONParseError) -> String {
        let string = try scanner.scanString()
        let text = UnsafeBufferPointer(rebasing: scanner.bytes[string.start..<string.end])
        return string.hasEscapes ? JSONScanner.unescapedString(text) : String(decoding: text, as: UTF8.self)
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw scanner.failure("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseArray() throws(JSONParseError) -> CassetteJSON {
        var elements: [CassetteJSON] = []
        try parseArray { elements.append($0) }
        return .array(elements)
    }

    /// An array whose elements go to `element` one by one.
    private mutating func parseArray(_ element: (CassetteJSON) -> Void) throws(JSONParseError) {
        try enter()
        scanner.index += 1
        scanner.skipWhitespace()
        if scanner.isAt(UInt8(ascii: "]")) {
            scanner.index += 1
            depth -= 1
            return
        }
        while true {
            scanner.skipWhitespace()
            element(try parseValue())
            scanner.skipWhitespace()
            guard !scanner.isAtEnd else { throw endOfInput("unexpected end of input, expected ',' or ']' in an array") }
            switch scanner.current {
            case UInt8(ascii: ","): scanner.index += 1
            case UInt8(ascii: "]"):
                scanner.index += 1
                depth -= 1
                return
            default: throw scanner.failure("expected ',' or ']' after an array element, found \(describeCurrent())")
            }
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> CassetteJSON {
        try enter()
        scanner.index += 1
        var members = CassetteJSON.Members()
        scanner.skipWhitespace()
        if scanner.isAt(UInt8(ascii: "}")) {
            scanner.index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            scanner.skipWhitespace()
            guard scanner.isAt(UInt8(ascii: "\"")) else {
                throw scanner.failure("expected a string key in an object, found \(describeCurrent())")
            }
            let keyOffset = scanner.index
            let key = try parseString()
            scanner.skipWhitespace()
            guard scanner.isAt(UInt8(ascii: ":")) else {
                throw scanner.failure("expected ':' after an object key, found \(describeCurrent())")
            }
            scanner.index += 1
            scanner.skipWhitespace()
            let value: CassetteJSON
            if depth == 1, key == streamedKey, let streamedElement, scanner.isAt(UInt8(ascii: "[")) {
                try parseArray(streamedElement)
                value = .array([])
            } else {
                value = try parseValue()
            }
            guard members.updateValue(value, forKey: key) == nil else {
                throw scanner.failure("duplicate key \(JSONWriter.quoted(key)) in an object", at: keyOffset)
            }
            scanner.skipWhitespace()
            guard !scanner.isAtEnd else { throw endOfInput("unexpected end of input, expected ',' or '}' in an object") }
            switch scanner.current {
            case UInt8(ascii: ","): scanner.index += 1
            case UInt8(ascii: "}"):
                scanner.index += 1
                depth -= 1
                return .object(members)
            default: throw scanner.failure("expected ',' or '}' after an object member, found \(describeCurrent())")
            }
        }
    }
}
