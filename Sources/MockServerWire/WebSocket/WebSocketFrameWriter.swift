import Foundation

/// Encodes WebSocket frames (RFC 6455 §5.2): a server's unmasked, a client's masked with the key it gives. The length
/// takes the fewest bytes that hold it.
package enum WebSocketFrameWriter {
    /// The bytes of `frame`, masked with `maskingKey` when one is given.
    package static func encode(_ frame: WebSocketFrame, maskingKey: WebSocketMaskingKey? = nil) -> Data {
        encode(fin: frame.fin, reservedBits: 0, opcode: frame.opcode.rawValue, payload: frame.payload, maskingKey: maskingKey)
    }

    /// The bytes of a frame with any header, for tests and faults that send what the protocol forbids: `reservedBits`
    /// are the three RSV bits (0 to 7, RSV1 the highest), `opcode` any 4-bit value. Nothing is checked.
    package static func encode(fin: Bool, reservedBits: UInt8, opcode: UInt8, payload: Data, maskingKey: WebSocketMaskingKey?) -> Data {
        var bytes = Data()
        bytes.reserveCapacity(payload.count + 14)
        bytes.append((fin ? 0x80 : 0) | (reservedBits & 0x7) << 4 | opcode & 0x0F)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        switch payload.count {
        case 0...125:
            bytes.append(maskBit | UInt8(payload.count))
        case 126...0xFFFF:
            bytes.append(maskBit | 126)
            bytes.append(UInt8(payload.count >> 8))
            bytes.append(UInt8(payload.count & 0xFF))
        default:
            bytes.append(maskBit | 127)
            let length = UInt64(payload.count)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: length >> UInt64(shift))) }
        }
        guard let maskingKey else {
            bytes.append(payload)
            return bytes
        }
        for index in 0..<4 { bytes.append(maskingKey.byte(index)) }
        let start = bytes.count
        bytes.append(payload)
        bytes.withUnsafeMutableBytes { all in
            maskingKey.apply(to: UnsafeMutableRawBufferPointer(rebasing: all[start...]), startingAt: 0)
        }
        return bytes
    }
}
