/// A strict RFC 8259 parser over UTF-8 bytes: no comments, no trailing commas, no duplicate keys, no
/// unpaired surrogates, nesting at most 512 deep. Numbers keep their literal text.
struct JSONParser {
    static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// The top-level member whose array elements go to ``streamedElement`` instead of into the result.
    private var streamedKey: String?
    private var streamedElement: ((CassetteJSON) -> Void)?

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses a whole document: one value, optionally surrounded by whitespace and preceded by a UTF-8 BOM.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> CassetteJSON {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseDocument()
    }

    /// Parses a whole document like ``parse(_:)``, except that when the top level is an object, each element of
    /// its array member `key` is handed to `element` as soon as it is parsed instead of being kept (the member's
    /// value in the result is an empty array). A large document's elements then never all exist at once.
    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, streaming key: String,
        element: (CassetteJSON) -> Void
    ) throws(JSONSyntaxError) -> CassetteJSON {
        let result: Result<CassetteJSON, JSONSyntaxError> = withoutActuallyEscaping(element) { element in
            var parser = JSONParser(bytes: bytes)
            parser.streamedKey = key
            parser.streamedElement = element
            do throws(JSONSyntaxError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private mutating func parseDocument() throws(JSONSyntaxError) -> CassetteJSON {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else {
            throw failure("unexpected \(describeCurrent()) after the JSON value")
        }
        return value
    }

    private func failure(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(bytes: bytes, offset: offset ?? index, reason: reason, endsEarly: index >= bytes.count)
    }

    /// A failure because the input ended inside the document.
    private func endOfInput(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(bytes: bytes, offset: offset ?? index, reason: reason, endsEarly: true)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> CassetteJSON {
        guard index < bytes.count else { throw endOfInput("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw failure("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        let start = word.utf8Start
        guard index + count <= bytes.count else { throw endOfInput("invalid literal, expected \(word)") }
        for offset in 0..<count where bytes[index + offset] != start[offset] {
            throw failure("invalid literal, expected \(word)")
        }
        index += count
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        guard let length = JSONNumber.scanLength(bytes, from: index) else { throw failure("invalid number") }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<index + length]), as: UTF8.self)
        index += length
        return JSONNumber(trustedLiteral: text)
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> CassetteJSON {
        try enter()
        index += 1
        var elements: [CassetteJSON] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw endOfInput("unexpected end of input, expected ',' or ']' in an array") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default: throw failure("expected ',' or ']' after an array element, found \(describeCurrent())")
            }
        }
    }

    /// An array whose elements go to `element` one by one.
    private mutating func parseStreamedArray(_ element: (CassetteJSON) -> Void) throws(JSONSyntaxError) {
        try enter()
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            element(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw endOfInput("unexpected end of input, expected ',' or ']' in an array") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return
            default: throw failure("expected ',' or ']' after an array element, found \(describeCurrent())")
            }
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> CassetteJSON {
        try enter()
        index += 1
        var members = CassetteJSON.Members()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure("expected a string key in an object, found \(describeCurrent())")
            }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw failure("expected ':' after an object key, found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            let value: CassetteJSON
            if depth == 1, key == streamedKey, let streamedElement, index < bytes.count, bytes[index] == UInt8(ascii: "[") {
                try parseStreamedArray(streamedElement)
                value = .array([])
            } else {
                value = try parseValue()
            }
            guard members.updateValue(value, forKey: key) == nil else {
                throw failure("duplicate key \(JSONWriter.quoted(key)) in an object", at: keyOffset)
            }
            skipWhitespace()
            guard index < bytes.count else { throw endOfInput("unexpected end of input, expected ',' or '}' in an object") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(members)
            default: throw failure("expected ',' or '}' after an object member, found \(describeCurrent())")
            }
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let open = index
        index += 1
        let start = index
        var sawNonASCII = false
        // Fast path: most strings have no escapes and can be taken as one slice.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if !sawNonASCII { return String(decoding: slice, as: UTF8.self) }
                guard let string = String(validUTF8: slice) else {
                    throw failure("invalid UTF-8 in a string", at: open)
                }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("unescaped control character in a string") }
            if byte >= 0x80 { sawNonASCII = true }
            index += 1
        }
        guard index < bytes.count else { throw endOfInput("unterminated string", at: open) }
        return try parseEscapedString(open: open, start: start)
    }

    private mutating func parseEscapedString(open: Int, start: Int) throws(JSONSyntaxError) -> String {
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validUTF8: buffer) else {
                    throw failure("invalid UTF-8 in a string", at: open)
                }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"): buffer.append(contentsOf: try parseUnicodeEscape().utf8)
                default: throw failure("invalid escape sequence in a string", at: index - 2)
                }
            default:
                if byte < 0x20 { throw failure("unescaped control character in a string") }
                buffer.append(byte)
                index += 1
            }
        }
        throw endOfInput("unterminated string", at: open)
    }

    /// Reads the hex digits after `\u` (and a following low surrogate escape when needed).
    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> String {
        let escapeStart = index - 2
        let high = try parseHex4()
        if high >= 0xD800 && high <= 0xDBFF {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw failure("unpaired surrogate in a \\u escape", at: escapeStart)
            }
            index += 2
            let low = try parseHex4()
            guard low >= 0xDC00 && low <= 0xDFFF else { throw failure("unpaired surrogate in a \\u escape", at: escapeStart) }
            let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            return String(Character(scalar))
        }
        guard let scalar = Unicode.Scalar(high) else { throw failure("unpaired surrogate in a \\u escape", at: escapeStart) }
        return String(Character(scalar))
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw endOfInput("invalid \\u escape, expected four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid \\u escape, expected four hex digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
