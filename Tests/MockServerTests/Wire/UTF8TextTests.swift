import Foundation
import MockServerWire
import Testing

/// `String(validUTF8:)` stands in for `String(validating:as:)` (macOS 15 / iOS 18). Its fallback for older
/// systems never runs by itself on Linux, so it is checked here directly, against the standard library's
/// verdict where that exists.
struct UTF8TextTests {
    static let samples: [(name: String, bytes: [UInt8], isValid: Bool)] = [
        ("empty", [], true),
        ("ASCII", Array("plain".utf8), true),
        ("BOM then text", [0xEF, 0xBB, 0xBF, 0x61], true),
        ("two-byte", [0xC3, 0xA9], true),
        ("three-byte", [0xE2, 0x82, 0xAC], true),
        ("four-byte", [0xF0, 0x9F, 0x98, 0x80], true),
        ("overlong slash", [0xC0, 0xAF], false),
        ("overlong NUL", [0xC0, 0x80], false),
        ("surrogate", [0xED, 0xA0, 0x80], false),
        ("above U+10FFFF", [0xF4, 0x90, 0x80, 0x80], false),
        ("truncated three-byte", [0xE2, 0x82], false),
        ("bare continuation", [0x80], false),
        ("FF byte", [0x61, 0xFF], false),
    ]

    @Test(arguments: samples)
    func fallback_givesTheStandardVerdict_andKeepsEveryByte(name: String, bytes: [UInt8], isValid: Bool) {
        #expect(String.isValidUTF8(bytes) == isValid, "\(name)")
        let text = String(validUTF8: Data(bytes))
        #expect(text.map { Array($0.utf8) } == (isValid ? bytes : nil), "\(name)")
        if #available(Swift6Runtime , *) {
            #expect((String(validating: bytes, as: UTF8.self) != nil) == isValid, "\(name)")
        }
    }
}
