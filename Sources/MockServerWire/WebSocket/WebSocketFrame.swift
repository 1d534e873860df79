import Foundation

/// The opcodes RFC 6455 defines (§5.2); the others are reserved, and a frame carrying one is refused.
package enum WebSocketOpcode: UInt8, Sendable, Hashable {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Whether frames of this opcode are control frames (close, ping, pong): never fragmented, at most 125 bytes.
    package var isControl: Bool { rawValue & 0x8 != 0 }
}

/// One frame as the parser hands it over: unmasked, its reserved bits zero (no extension is ever negotiated).
package struct WebSocketFrame: Sendable, Hashable {
    /// Whether this is the last frame of its message (always for control frames).
    package var fin: Bool
    /// What the frame carries.
    package var opcode: WebSocketOpcode
    /// The application data, unmasked.
    package var payload: Data

    /// A frame of `opcode` carrying `payload`; the final one of its message unless `fin` is false.
    package init(fin: Bool = true, opcode: WebSocketOpcode, payload: Data) {
        self.fin = fin
        self.opcode = opcode
        self.payload = payload
    }

    /// The most payload a control frame may carry.
    package static let maxControlPayload = 125
}

/// The 4-byte key a client masks each frame's payload with (RFC 6455 §5.3), in wire order: the first byte is the
/// most significant of ``value``.
package struct WebSocketMaskingKey: Sendable, Hashable {
    /// The four bytes, big-endian.
    package var value: UInt32

    /// The key whose bytes, in order, are `value`'s from the most significant.
    package init(_ value: UInt32) {
        self.value = value
    }

    /// A key from the system's random source, as RFC 6455 asks of clients.
    package static func random() -> WebSocketMaskingKey {
        WebSocketMaskingKey(UInt32.random(in: .min ... .max))
    }

    /// Byte `index` (taken modulo 4) of the key.
    package func byte(_ index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * (index & 3)))
    }

    /// Masks (or unmasks, the same operation) `bytes` in place, the first of them being byte `offset` of the payload.
    func apply(to bytes: UnsafeMutableRawBufferPointer, startingAt offset: Int) {
        let key = (byte(0), byte(1), byte(2), byte(3))
        for index in 0..<bytes.count {
            switch (offset + index) & 3 {
            case 0: bytes[index] ^= key.0
            case 1: bytes[index] ^= key.1
            case 2: bytes[index] ^= key.2
            default: bytes[index] ^= key.3
            }
        }
    }
}
