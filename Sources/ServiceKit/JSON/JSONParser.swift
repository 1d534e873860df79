import Foundation

/// Turns UTF-8 JSON text (RFC 8259) into a ``JSONValue`` in one pass over the bytes, dropping every `null`.
/// Nothing is thrown for well-formed input; the first problem ends the parse with a ``JSONParseError``
/// saying where it is.
///
/// Lenient only where RFC 8259 lets a parser be: a leading UTF-8 byte order mark is skipped, a `\u` escape
/// of a lone surrogate reads as U+FFFD, and a repeated object key keeps its last value. Numbers outside
/// `Double`'s range, invalid UTF-8 and nesting deeper than ``maximumDepth`` are errors.
struct JSONParser {
    /// Containers nested deeper than this are refused, so hostile input cannot exhaust the stack.
    static let maximumDepth = 512

    /// Parses `data`; `nil` when the whole document is `null`.
    static func parse(_ data: Data) throws(JSONParseError) -> JSONValue? {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(JSONParseError) -> JSONValue? in
                var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
                return try parser.parseDocument()
            }
        }
        return try result.get()
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    // Containers collect their contents on shared stacks and are built once at their exact size: no
    // growing, no spare capacity left in the document.
    private var memberStack: [(key: String, value: JSONValue)] = []
    private var elementStack: [JSONValue] = []
    /// The unescaped bytes of the string being read, when it has escapes.
    private var unescaped: [UInt8] = []

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private mutating func parseDocument() throws(JSONParseError) -> JSONValue? {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
        }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else {
            throw failure("unexpected text after the JSON value")
        }
        return value
    }

    // MARK: Values

    /// The value starting at the next non-whitespace byte; `nil` for `null`.
    private mutating func parseValue() throws(JSONParseError) -> JSONValue? {
        skipWhitespace()
        guard index < bytes.count else {
            throw failure("the body ends where a value was expected")
        }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return try parseObject()
        case UInt8(ascii: "["):
            return try parseArray()
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        default:
            throw failure("expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        let start = memberStack.count
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object([:])
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure("expected a member name in double quotes")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw failure("expected ':' after a member name")
            }
            index += 1
            if let value = try parseValue() {
                memberStack.append((key, value))
            }
            skipWhitespace()
            guard index < bytes.count else {
                throw failure("the body ends inside an object")
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                break
            } else {
                throw failure("expected ',' or '}' after an object member")
            }
        }
        var members = [String: JSONValue](minimumCapacity: memberStack.count - start)
        for member in memberStack[start...] {
            members[member.key] = member.value
        }
        memberStack.removeSubrange(start...)
        return .object(members)
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        let start = elementStack.count
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array([])
        }
        while true {
            if let element = try parseValue() {
                elementStack.append(element)
            }
            skipWhitespace()
            guard index < bytes.count else {
                throw failure("the body ends inside an array")
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                break
            } else {
                throw failure("expected ',' or ']' after an array element")
            }
        }
        let elements = Array(elementStack[start...])
        elementStack.removeSubrange(start...)
        return .array(elements)
    }

    private mutating func enterContainer() throws(JSONParseError) {
        guard depth < Self.maximumDepth else {
            throw failure("objects and arrays nested deeper than \(Self.maximumDepth) levels")
        }
        depth += 1
        index += 1
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count,
              memcmp(bytes.baseAddress! + index, literal.utf8Start, count) == 0 else {
            throw failure("expected a value (object, array, string, number, true, false or null)")
        }
        index += count
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                index += 1
            default:
                return
            }
        }
    }

    // MARK: Strings

    /// The string whose opening quote is at `index`; leaves `index` after its closing quote.
    private mutating func parseString() throws(JSONParseError) -> String {
        let opening = index
        index += 1
        var isASCII = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(rebasing: bytes[(opening + 1)..<index])
                index += 1
                return try string(from: text, isASCII: isASCII, startingAt: opening)
            }
            if byte == UInt8(ascii: "\\") {
                return try parseEscapedString(openedAt: opening)
            }
            if byte < 0x20 {
                throw failure("a control character inside a string must be escaped")
            }
            if byte >= 0x80 {
                isASCII = false
            }
            index += 1
        }
        throw failure("the string starting here is never closed", at: opening)
    }

    /// The rest of a string from its first backslash at `index`, unescaped into ``unescaped``.
    private mutating func parseEscapedString(openedAt opening: Int) throws(JSONParseError) -> String {
        unescaped.removeAll(keepingCapacity: true)
        unescaped.append(contentsOf: bytes[(opening + 1)..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try unescaped.withUnsafeBufferPointer { text throws(JSONParseError) in
                    try string(from: text, isASCII: false, startingAt: opening)
                }
            case UInt8(ascii: "\\"):
                try appendEscape()
            case ..<0x20:
                throw failure("a control character inside a string must be escaped")
            default:
                unescaped.append(byte)
                index += 1
            }
        }
        throw failure("the string starting here is never closed", at: opening)
    }

    /// Appends the character escaped at `index` (a backslash) to ``unescaped``.
    private mutating func appendEscape() throws(JSONParseError) {
        guard index + 1 < bytes.count else {
            throw failure("the body ends inside an escape")
        }
        let escaped: UInt8
        switch bytes[index + 1] {
        case UInt8(ascii: "\""): escaped = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): escaped = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): escaped = UInt8(ascii: "/")
        case UInt8(ascii: "b"): escaped = 0x08
        case UInt8(ascii: "f"): escaped = 0x0C
        case UInt8(ascii: "n"): escaped = UInt8(ascii: "\n")
        case UInt8(ascii: "r"): escaped = UInt8(ascii: "\r")
        case UInt8(ascii: "t"): escaped = UInt8(ascii: "\t")
        case UInt8(ascii: "u"):
            appendUTF8(of: try parseUnicodeEscape())
            return
        default:
            throw failure("unknown escape; only \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX are allowed")
        }
        unescaped.append(escaped)
        index += 2
    }

    /// The scalar of the `\uXXXX` escape at `index`, joined with a following low-surrogate escape when it
    /// is a high surrogate. A lone surrogate reads as U+FFFD.
    private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let unit = try hexQuad(at: index + 2)
        index += 6
        switch unit {
        case 0xD800...0xDBFF:
            if bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
               case let low = try hexQuad(at: index + 2), (0xDC00...0xDFFF).contains(low) {
                index += 6
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
            }
            return "\u{FFFD}"
        case 0xDC00...0xDFFF:
            return "\u{FFFD}"
        default:
            return Unicode.Scalar(unit)!
        }
    }

    private func hexQuad(at start: Int) throws(JSONParseError) -> UInt32 {
        guard bytes.count - start >= 4 else {
            throw failure("\\u must be followed by four hexadecimal digits", at: start - 2)
        }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[start + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("\\u must be followed by four hexadecimal digits", at: start - 2)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func appendUTF8(of scalar: Unicode.Scalar) {
        for unit in UTF8.encode(scalar)! {
            unescaped.append(unit)
        }
    }

    private func string(from text: UnsafeBufferPointer<UInt8>, isASCII: Bool,
                        startingAt opening: Int) throws(JSONParseError) -> String {
        if isASCII {
            return String(decoding: text, as: UTF8.self)
        }
        guard let string = String(validating: text, as: UTF8.self) else {
            throw failure("the string starting here is not valid UTF-8", at: opening)
        }
        return string
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
        }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw failure("expected a digit")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw failure("a number cannot have leading zeros", at: start)
            }
        } else {
            skipDigits()
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            try requireDigits(after: "the decimal point")
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            try requireDigits(after: "the exponent")
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if isInteger, let integer = Self.integer(text) {
            return .integer(integer)
        }
        guard let double = Double(String(decoding: text, as: UTF8.self)), double.isFinite else {
            throw failure("the number is too large for a Double", at: start)
        }
        return .double(double)
    }

    /// The value of an optionally negative run of digits, or `nil` when it does not fit `Int`.
    private static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        let isNegative = text[0] == UInt8(ascii: "-")
        var value = 0
        // Accumulate on the number's own side of zero so that Int.min fits.
        for byte in text[(isNegative ? 1 : 0)...] {
            let digit = Int(byte - UInt8(ascii: "0"))
            let (shifted, overflowedShift) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowedAdd) = isNegative ? shifted.subtractingReportingOverflow(digit)
                                                   : shifted.addingReportingOverflow(digit)
            guard !overflowedShift, !overflowedAdd else { return nil }
            value = next
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) {
            index += 1
        }
    }

    private mutating func requireDigits(after what: String) throws(JSONParseError) {
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw failure("expected a digit after \(what)")
        }
        skipDigits()
    }

    // MARK: Errors

    private func failure(_ problem: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(problem, at: offset ?? index, in: bytes)
    }
}
