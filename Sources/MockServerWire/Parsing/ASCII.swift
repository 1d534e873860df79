#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte classes from RFC 9110 used by the parsers.
package enum ASCII {
    package static let cr = UInt8(ascii: "\r")
    package static let lf = UInt8(ascii: "\n")
    package static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    package static let colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ",")
    static let semicolon = UInt8(ascii: ";")

    /// `tchar`: the characters allowed in a method or a header name.
    @inline(__always)
    package static func isToken(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// A byte allowed in a field value: visible ASCII, space, tab, or obs-text (0x80 and up).
    @inline(__always)
    static func isFieldValue(_ byte: UInt8) -> Bool {
        byte >= 0x20 ? byte != 0x7F : byte == tab
    }

    /// A byte allowed in a request target: visible ASCII only.
    @inline(__always)
    static func isTargetByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F
    }

    @inline(__always)
    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab
    }

    /// The value of a hexadecimal digit, or `nil`.
    @inline(__always)
    package static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte &- UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte &- UInt8(ascii: "a") &+ 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte &- UInt8(ascii: "A") &+ 10)
        default: nil
        }
    }

    /// Whether `bytes` equals the lower-case ASCII `lowercase`, ignoring case.
    @inline(__always)
    static func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Start
        for index in 0..<bytes.count where bytes[index] | 0x20 != expected[index] {
            return false
        }
        return true
    }
}

extension UnsafeRawBufferPointer {
    /// The bytes without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> UnsafeRawBufferPointer {
        var start = 0
        var end = count
        while start < end, ASCII.isWhitespace(self[start]) { start += 1 }
        while end > start, ASCII.isWhitespace(self[end - 1]) { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: self[start..<end])
    }

    /// The index of the first `byte` at or after `from`, or `nil`.
    func firstIndex(of byte: UInt8, from: Int = 0) -> Int? {
        guard from < count, let base = baseAddress, let found = memchr(base + from, Int32(byte), count - from) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Whether the bytes equal `text` exactly.
    func equals(_ text: StaticString) -> Bool {
        count == text.utf8CodeUnitCount && (count == 0 || memcmp(baseAddress!, text.utf8Start, count) == 0)
    }
}
