import Foundation

/// Gzip (RFC 1952) without a compressor: the data in one stored, uncompressed deflate block (RFC 1951
/// §3.2.4). Every gzip decoder reads it, which is all a test of "compressed bodies are stored decoded"
/// needs, and Foundation has no zlib API on Linux.
enum StoredGzip {
    /// The gzip member holding `data` (at most 65,535 bytes, one stored block's limit).
    static func encode(_ data: Data) -> Data {
        precondition(data.count <= 0xFFFF, "one stored block holds at most 65,535 bytes")
        var out = Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF])  // magic, deflate, no flags, no time, unknown OS
        out.append(0x01)  // BFINAL = 1, BTYPE = 00 (stored); the rest of the byte is padding
        let length = UInt16(data.count)
        append(length, to: &out)
        append(~length, to: &out)
        out.append(data)
        append(crc32(data), to: &out)
        append(UInt32(data.count), to: &out)
        return out
    }

    /// CRC-32 (IEEE 802.3, reflected, the checksum gzip uses), bit by bit: slow and obviously correct.
    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1)))
            }
        }
        return ~crc
    }

    private static func append<Integer: FixedWidthInteger>(_ value: Integer, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
}
