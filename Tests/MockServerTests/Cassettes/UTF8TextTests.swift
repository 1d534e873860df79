import Foundation
@testable import MockServer
import Testing

/// `String(validUTF8:)` stands in for `String(validating:as:)` (macOS 15 / iOS 18); its fallback for older
/// systems must give the same verdict, byte for byte, although on Linux it never runs by itself.
struct UTF8TextTests {
    static let samples: [(String, [UInt8])] = [
        ("empty", []),
        ("ASCII", Array("plain".utf8)),
        ("BOM then text", [0xEF, 0xBB, 0xBF, 0x61]),
        ("two-byte", [0xC3, 0xA9]),
        ("three-byte", [0xE2, 0x82, 0xAC]),
        ("four-byte", [0xF0, 0x9F, 0x98, 0x80]),
        ("overlong slash", [0xC0, 0xAF]),
        ("overlong NUL", [0xC0, 0x80]),
        ("surrogate", [0xED, 0xA0, 0x80]),
        ("above U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
        ("truncated three-byte", [0xE2, 0x82]),
        ("bare continuation", [0x80]),
        ("FF byte", [0x61, 0xFF]),
    ]

    @Test(arguments: samples)
    func fallback_agreesWithTheStandardLibrary(name: String, bytes: [UInt8]) {
        let expected = String(validating: bytes, as: UTF8.self)
        #expect(String.isValidUTF8(bytes) == (expected != nil), "\(name)")
        #expect(String(validUTF8: bytes) == expected, "\(name)")
        #expect(String(validUTF8: Data(bytes)).map { Array($0.utf8) } == expected.map { Array($0.utf8) }, "\(name)")
    }
}
