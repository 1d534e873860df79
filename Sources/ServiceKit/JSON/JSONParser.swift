import Foundation
@_spi(JSONScanning) import ServiceReplayShared

/// Reads UTF-8 JSON text (RFC 8259) in one pass over the bytes into a ``JSONDocument`` tape, checking
/// everything a later read relies on: structure, UTF-8, escapes, number ranges. Nothing is thrown for
/// well-formed input; the first problem ends the parse with a ``JSONParseError`` saying where it is.
///
/// Lenient only where RFC 8259 lets a parser be: a leading UTF-8 byte order mark is skipped, a `\u` escape
/// of a lone surrogate reads as U+FFFD, and a repeated object key keeps its last value. Numbers outside
/// `Double`'s range, invalid UTF-8 and nesting deeper than ``maximumDepth`` are errors, and so are bodies
/// over 4 GiB and strings over 256 MiB, which the tape cannot point into. The lexical checks are
/// `JSONScanner`'s, shared with MockServer's cassette parser; this parser keeps the structure and the policy.
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

    private var scanner: JSONScanner
    private var depth = 0
    private var tape: [JSONDocument.Entry] = []

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        scanner = JSONScanner(bytes: bytes, loneSurrogates: .replace)
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
        guard scanner.bytes.count <= Int(UInt32.max) else {
            throw scanner.failure("a body over 4 GiB is too large to read", at: 0)
        }
        scanner.skipByteOrderMark()
        try parseValue()
        scanner.skipWhitespace()
        guard scanner.isAtEnd else {
            throw scanner.failure("unexpected text after the JSON value")
        }
    }

    // MARK: Values

    /// Reads the value starting at the next non-whitespace byte onto the tape; a `null` adds nothing and
    /// returns false.
    @discardableResult
    private mutating func parseValue() throws(JSONParseError) -> Bool {
        scanner.skipWhitespace()
        guard !scanner.isAtEnd else {
            throw scanner.failure("the body ends where a value was expected")
        }
        switch scanner.current {
        case UInt8(ascii: "{"):
            try parseObject()
        case UInt8(ascii: "["):
            try parseArray()
        case UInt8(ascii: "\""):
            try parseString()
        case UInt8(ascii: "t"):
            try scanner.expectLiteral("true")
            tape.append(JSONDocument.Entry(.true, start: scanner.index - 4, length: 4))
        case UInt8(ascii: "f"):
            try scanner.expectLiteral("false")
            tape.append(JSONDocument.Entry(.false, start: scanner.index - 5, length: 5))
        case UInt8(ascii: "n"):
            try scanner.expectLiteral("null")
            return false
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try parseNumber()
        default:
            throw scanner.failure("expected a value (object, array, string, number, true, false or null)")
        }
        return true
    }

    private mutating func parseObject() throws(JSONParseError) {
        let header = try enterContainer()
        defer { depth -= 1 }
        var count = 0
        scanner.skipWhitespace()
        if scanner.isAt(UInt8(ascii: "}")) {
            scanner.index += 1
            try close(.object, header: header, count: 0)
            return
        }
        while true {
            scanner.skipWhitespace()
            guard scanner.isAt(UInt8(ascii: "\"")) else {
                throw scanner.failure("expected a member name in double quotes")
            }
            try parseString()
            scanner.skipWhitespace()
            guard scanner.isAt(UInt8(ascii: ":")) else {
                throw scanner.failure("expected ':' after a member name")
            }
            scanner.index += 1
            if try parseValue() {
                count += 1
            } else {
                // A null member is dropped, name and all.
                tape.removeLast()
            }
            scanner.skipWhitespace()
            guard !scanner.isAtEnd else {
                throw scanner.failure("the body ends inside an object")
            }
            if scanner.current == UInt8(ascii: ",") {
                scanner.index += 1
            } else if scanner.current == UInt8(ascii: "}") {
                scanner.index += 1
                break
            } else {
                throw scanner.failure("expected ',' or '}' after an object member")
            }
        }
        try close(.object, header: header, count: count)
    }

    private mutating func parseArray() throws(JSONParseError) {
        let header = try enterContainer()
        defer { depth -= 1 }
        var count = 0
        scanner.skipWhitespace()
        if scanner.isAt(UInt8(ascii: "]")) {
            scanner.index += 1
            try close(.array, header: header, count: 0)
            return
        }
        while true {
            if try parseValue() {
                count += 1
            }
            scanner.skipWhitespace()
            guard !scanner.isAtEnd else {
                throw scanner.failure("the body ends inside an array")
            }
            if scanner.current == UInt8(ascii: ",") {
                scanner.index += 1
            } else if scanner.current == UInt8(ascii: "]") {
                scanner.index += 1
                break
            } else {
                throw scanner.failure("expected ',' or ']' after an array element")
            }
        }
        try close(.array, header: header, count: count)
    }

    /// Steps into the container at the scanner's index, reserving its header entry (filled in when it
    /// closes); returns the header's index.
    private mutating func enterContainer() throws(JSONParseError) -> Int {
        guard depth < Self.maximumDepth else {
            throw scanner.failure("objects and arrays nested deeper than \(Self.maximumDepth) levels")
        }
        depth += 1
        scanner.index += 1
        tape.append(JSONDocument.Entry(.array, end: 0, count: 0))
        return tape.count - 1
    }

    /// Fills in the header of the container that just closed.
    private mutating func close(_ kind: JSONDocument.Entry.Kind, header: Int, count: Int) throws(JSONParseError) {
        guard tape.count <= Int(UInt32.max), count <= JSONDocument.Entry.maximumLength else {
            throw scanner.failure("a container of over 256 Mi values is too large to read", at: scanner.index - 1)
        }
        tape[header] = JSONDocument.Entry(kind, end: tape.count, count: count)
    }

    // MARK: Strings and numbers

    /// Checks the string whose opening quote is at the scanner's index and puts it on the tape.
    private mutating func parseString() throws(JSONParseError) {
        let string = try scanner.scanString()
        let length = string.end - string.start
        guard length <= JSONDocument.Entry.maximumLength else {
            throw scanner.failure("a string over 256 MiB is too long to read", at: string.start - 1)
        }
        tape.append(JSONDocument.Entry(string.hasEscapes ? .escapedString : .plainString, start: string.start, length: length))
    }

    private mutating func parseNumber() throws(JSONParseError) {
        let number = try scanner.scanNumber()
        let text = UnsafeBufferPointer(rebasing: scanner.bytes[number.start..<number.end])
        guard text.count <= JSONDocument.Entry.maximumLength else {
            throw scanner.failure("a number over 256 MiB long is too long to read", at: number.start)
        }
        // `-0` stays a Double: Int has no negative zero, and the sign must survive encoding and parsing again.
        if number.isInteger, let value = Self.integer(text), value != 0 || text[0] != UInt8(ascii: "-") {
            tape.append(JSONDocument.Entry(.integer, start: number.start, length: text.count))
            return
        }
        guard let double = Double(String(decoding: text, as: UTF8.self)), double.isFinite else {
            throw scanner.failure("the number is too large for a Double", at: number.start)
        }
        tape.append(JSONDocument.Entry(.double, start: number.start, length: text.count))
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
}
