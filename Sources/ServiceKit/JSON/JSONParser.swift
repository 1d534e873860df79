import Foundation

/// Reads UTF-8 JSON text (RFC 8259) in one pass over the bytes into a ``JSONDocument`` tape, checking
/// everything a later read relies on: structure, UTF-8, escapes, number ranges. Nothing is thrown for
/// well-formed input; the first problem ends the parse with a ``JSONParseError`` saying where it is.
///
/// Lenient only where RFC 8259 lets a parser be: a leading UTF-8 byte order mark is skipped, a `\u` escape
/// of a lone surrogate reads as U+FFFD, and a repeated object key keeps its last value. Numbers outside
/// `Double`'s range, invalid UTF-8 and nesting deeper than ``maximumDepth`` are errors, and so are bodies
/// over 4 GiB and strings over 256 MiB, which the tape cannot point into.
struct JSONParser {
    /// Containers nested deeper than this are refused, so hostile input cannot exhaust the stack. 128 (as
    /// serde_json) because a response is parsed, read and decoded on whatever thread awaits it, and Apple
    /// platforms give secondary threads, Swift concurrency's among them, 512 KiB: a debug build needs about
    /// 2 KiB a level to parse and more to encode, so 512 levels overflowed there while 128 leave room.
    static let maximumDepth = 128

    /// The tape of `data`: empty when the whole document is `null`.
    static func tape(for data: Data) throws(JSONParseError) -> [JSONDocument.Entry] {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(JSONParseError) -> [JSONDocument.Entry] in
                var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
                try parser.parseDocument()
                return parser.tape
            }
        }
        return try result.get()
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    private var tape: [JSONDocument.Entry] = []

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        tape.reserveCapacity(Self.maximumEntryCount(in: bytes))
    }

    /// A bound on the tape's length, so that it is allocated once at about its final size: a growing array
    /// would briefly hold its old and new storage and end with up to half of it unused. Every value but the
    /// first follows a `[`, `,` or `:`, and every member name a `{` or `,` (those inside strings only make the
    /// bound looser).
    private static func maximumEntryCount(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 1
        for byte in bytes {
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "{"): count += 1
            default: break
            }
        }
        return count
    }

    private mutating func parseDocument() throws(JSONParseError) {
        guard bytes.count <= Int(UInt32.max) else {
            throw failure("a body over 4 GiB is too large to read", at: 0)
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
        }
        try parseValue()
        skipWhitespace()
        guard index == bytes.count else {
            throw failure("unexpected text after the JSON value")
        }
    }

    // MARK: Values

    /// Reads the value starting at the next non-whitespace byte onto the tape; a `null` adds nothing and
    /// returns false.
    @discardableResult
    private mutating func parseValue() throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else {
            throw failure("the body ends where a value was expected")
        }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            try parseObject()
        case UInt8(ascii: "["):
            try parseArray()
        case UInt8(ascii: "\""):
            try parseString()
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            tape.append(JSONDocument.Entry(.true, start: index - 4, length: 4))
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            tape.append(JSONDocument.Entry(.false, start: index - 5, length: 5))
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return false
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try parseNumber()
        default:
            throw failure("expected a value (object, array, string, number, true, false or null)")
        }
        return true
    }

    private mutating func parseObject() throws(JSONParseError) {
        let header = try enterContainer()
        defer { depth -= 1 }
        var count = 0
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            try close(.object, header: header, count: 0)
            return
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure("expected a member name in double quotes")
            }
            try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw failure("expected ':' after a member name")
            }
            index += 1
            if try parseValue() {
                count += 1
            } else {
                // A null member is dropped, name and all.
                tape.removeLast()
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
        try close(.object, header: header, count: count)
    }

    private mutating func parseArray() throws(JSONParseError) {
        let header = try enterContainer()
        defer { depth -= 1 }
        var count = 0
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            try close(.array, header: header, count: 0)
            return
        }
        while true {
            if try parseValue() {
                count += 1
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
        try close(.array, header: header, count: count)
    }

    /// Steps into the container at `index`, reserving its header entry (filled in when it closes); returns
    /// the header's index.
    private mutating func enterContainer() throws(JSONParseError) -> Int {
        guard depth < Self.maximumDepth else {
            throw failure("objects and arrays nested deeper than \(Self.maximumDepth) levels")
        }
        depth += 1
        index += 1
        tape.append(JSONDocument.Entry(.array, end: 0, count: 0))
        return tape.count - 1
    }

    /// Fills in the header of the container that just closed.
    private mutating func close(_ kind: JSONDocument.Entry.Kind, header: Int, count: Int) throws(JSONParseError) {
        guard tape.count <= Int(UInt32.max), count <= JSONDocument.Entry.maximumLength else {
            throw failure("a container of over 256 Mi values is too large to read", at: index - 1)
        }
        tape[header] = JSONDocument.Entry(kind, end: tape.count, count: count)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count,
            memcmp(bytes.baseAddress! + index, literal.utf8Start, count) == 0
        else {
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

    /// Checks the string whose opening quote is at `index` and puts it on the tape; leaves `index` after
    /// its closing quote.
    private mutating func parseString() throws(JSONParseError) {
        let opening = index
        index += 1
        var isASCII = true
        var isEscaped = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let start = opening + 1
                if !isASCII {
                    try validateUTF8(from: start, to: index, stringOpenedAt: opening)
                }
                guard index - start <= JSONDocument.Entry.maximumLength else {
                    throw failure("a string over 256 MiB is too long to read", at: opening)
                }
                tape.append(JSONDocument.Entry(isEscaped ? .escapedString : .plainString, start: start, length: index - start))
                index += 1
                return
            }
            if byte == UInt8(ascii: "\\") {
                isEscaped = true
                try checkEscape()
                continue
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

    /// Checks the escape whose backslash is at `index` and steps over it.
    private mutating func checkEscape() throws(JSONParseError) {
        guard index + 1 < bytes.count else {
            throw failure("the body ends inside an escape")
        }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 2
        case UInt8(ascii: "u"):
            guard bytes.count - index >= 6, Self.hexQuad(bytes, at: index + 2) != nil else {
                throw failure("\\u must be followed by four hexadecimal digits")
            }
            index += 6
        default:
            throw failure("unknown escape; only \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX are allowed")
        }
    }

    private func validateUTF8(from start: Int, to end: Int, stringOpenedAt opening: Int) throws(JSONParseError) {
        var iterator = bytes[start..<end].makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue:
                continue
            case .emptyInput:
                return
            case .error:
                throw failure("the string starting here is not valid UTF-8", at: opening)
            }
        }
    }

    /// The text of an escaped string (between its quotes, already checked) with its escapes replaced.
    /// A `\u` escape of a lone surrogate becomes U+FFFD.
    static func unescape(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            let byte = text[index]
            guard byte == UInt8(ascii: "\\") else {
                result.append(byte)
                index += 1
                continue
            }
            let escaped: UInt8
            switch text[index + 1] {
            case UInt8(ascii: "b"): escaped = 0x08
            case UInt8(ascii: "f"): escaped = 0x0C
            case UInt8(ascii: "n"): escaped = UInt8(ascii: "\n")
            case UInt8(ascii: "r"): escaped = UInt8(ascii: "\r")
            case UInt8(ascii: "t"): escaped = UInt8(ascii: "\t")
            case UInt8(ascii: "u"):
                let (scalar, length) = unicodeEscape(text, at: index)
                result.append(contentsOf: UTF8.encode(scalar)!)
                index += length
                continue
            case let other: escaped = other
            }
            result.append(escaped)
            index += 2
        }
        return result
    }

    /// The scalar of the `\uXXXX` escape at `index`, joined with a following low-surrogate escape when it
    /// is a high surrogate, and how many bytes it took.
    private static func unicodeEscape(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int) {
        let unit = hexQuad(text, at: index + 2)!
        switch unit {
        case 0xD800...0xDBFF:
            if text.count - index >= 12, text[index + 6] == UInt8(ascii: "\\"), text[index + 7] == UInt8(ascii: "u"),
                let low = hexQuad(text, at: index + 8), (0xDC00...0xDFFF).contains(low)
            {
                return (Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!, 12)
            }
            return ("\u{FFFD}", 6)
        case 0xDC00...0xDFFF:
            return ("\u{FFFD}", 6)
        default:
            return (Unicode.Scalar(unit)!, 6)
        }
    }

    private static func hexQuad(_ text: UnsafeBufferPointer<UInt8>, at start: Int) -> UInt32? {
        guard text.count - start >= 4 else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = text[start + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONParseError) {
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
        guard text.count <= JSONDocument.Entry.maximumLength else {
            throw failure("a number over 256 MiB long is too long to read", at: start)
        }
        // `-0` stays a Double: Int has no negative zero, and the sign must survive encoding and parsing again.
        if isInteger, let value = Self.integer(text), value != 0 || text[0] != UInt8(ascii: "-") {
            tape.append(JSONDocument.Entry(.integer, start: start, length: text.count))
            return
        }
        guard let double = Double(String(decoding: text, as: UTF8.self)), double.isFinite else {
            throw failure("the number is too large for a Double", at: start)
        }
        tape.append(JSONDocument.Entry(.double, start: start, length: text.count))
    }

    /// The value of an optionally negative run of digits, or `nil` when it does not fit `Int`.
    static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        let isNegative = text[0] == UInt8(ascii: "-")
        var value = 0
        // Accumulate on the number's own side of zero so that Int.min fits.
        for byte in text[(isNegative ? 1 : 0)...] {
            let digit = Int(byte &- UInt8(ascii: "0"))
            let (shifted, overflowedShift) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowedAdd) =
                isNegative
                ? shifted.subtractingReportingOverflow(digit)
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
