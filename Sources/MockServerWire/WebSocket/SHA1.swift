/// SHA-1 (FIPS 180-4), for the one digest the WebSocket handshake needs (`Sec-WebSocket-Accept`). Not for security:
/// the package has no dependency to take a digest from, and the handshake only proves that the server read the key.
enum SHA1 {
    /// The 20-byte digest of `bytes`.
    static func digest<Bytes: Collection>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        var message = Array(bytes)
        let bitLength = UInt64(message.count) &* 8
        // Padding: a one bit, zeros up to 56 bytes modulo 64, then the length in bits, big-endian.
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        var words = [UInt32](repeating: 0, count: 80)
        for block in stride(from: 0, to: message.count, by: 64) {
            for index in 0..<16 {
                let offset = block + index * 4
                words[index] =
                    UInt32(message[offset]) << 24 | UInt32(message[offset + 1]) << 16 | UInt32(message[offset + 2]) << 8 | UInt32(message[offset + 3])
            }
            for index in 16..<80 {
                words[index] = rotate(words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16], by: 1)
            }
            var (a, b, c, d, e) = state
            for index in 0..<80 {
                let mixed: UInt32
                let constant: UInt32
                switch index {
                case 0..<20:
                    mixed = (b & c) | (~b & d)
                    constant = 0x5A82_7999
                case 20..<40:
                    mixed = b ^ c ^ d
                    constant = 0x6ED9_EBA1
                case 40..<60:
                    mixed = (b & c) | (b & d) | (c & d)
                    constant = 0x8F1B_BCDC
                default:
                    mixed = b ^ c ^ d
                    constant = 0xCA62_C1D6
                }
                let next = rotate(a, by: 5) &+ mixed &+ e &+ constant &+ words[index]
                e = d
                d = c
                c = rotate(b, by: 30)
                b = a
                a = next
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(20)
        for word in [state.0, state.1, state.2, state.3, state.4] {
            for shift in stride(from: 24, through: 0, by: -8) { digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        return digest
    }

    private static func rotate(_ value: UInt32, by count: UInt32) -> UInt32 {
        value << count | value >> (32 - count)
    }
}
