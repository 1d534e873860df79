/// The checksums of the gzip and zlib formats.
enum Checksums {
    /// CRC-32 as gzip uses it (RFC 1952 §8: polynomial 0xEDB88320, reflected, initial and final value
    /// inverted) of `bytes`, continuing from `crc`, the checksum of the bytes before them (0 for none).
    static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        // Slicing by 8: eight table lookups fold eight bytes at a time instead of one.
        crcTables.withUnsafeBufferPointer { table in
            var crc = ~crc
            var index = 0
            while bytes.count - index >= 8 {
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let low = UInt32(truncatingIfNeeded: word) ^ crc
                let high = UInt32(truncatingIfNeeded: word >> 32)
                crc =
                    table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int(low >> 8 & 0xFF)]
                    ^ table[5 * 256 + Int(low >> 16 & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int(high >> 8 & 0xFF)]
                    ^ table[256 + Int(high >> 16 & 0xFF)] ^ table[Int(high >> 24)]
                index += 8
            }
            while index < bytes.count {
                crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ crc >> 8
                index += 1
            }
            return ~crc
        }
    }

    /// Table `k` (entries `256 k ..< 256 (k + 1)`) is the CRC of a byte followed by `k` zero bytes.
    private static let crcTables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? 0xEDB8_8320 ^ crc >> 1 : crc >> 1
            }
            tables[byte] = crc
        }
        for index in 256..<(8 * 256) {
            let previous = tables[index - 256]
            tables[index] = tables[Int(previous & 0xFF)] ^ previous >> 8
        }
        return tables
    }()

    /// Adler-32 as zlib uses it (RFC 1950 §8.2) of `bytes`, continuing from `adler`, the checksum of the bytes
    /// before them (1 for none).
    static func adler32(_ bytes: UnsafeRawBufferPointer, continuing adler: UInt32 = 1) -> UInt32 {
        let modulus: UInt32 = 65521
        var a = adler & 0xFFFF
        var b = adler >> 16
        var index = 0
        while index < bytes.count {
            // 5552 bytes is the most that can be summed before `b` could overflow 32 bits.
            let end = min(bytes.count, index + 5552)
            while index < end {
                a += UInt32(bytes[index])
                b += a
                index += 1
            }
            a %= modulus
            b %= modulus
        }
        return b << 16 | a
    }
}
