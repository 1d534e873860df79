import Foundation

/// Reads WebSocket frames (RFC 6455 §5.2) from bytes as they arrive, in any pieces, and refuses what breaks the
/// protocol with the close to answer it with: a reserved bit set (no extension is negotiated), a reserved opcode, a
/// fragmented or over-long control frame, a 64-bit length with its top bit set, a frame masked the wrong way for
/// the sender's role (1002), a payload beyond ``maxFrameSize`` (1009, refused at its header, before any of it is
/// buffered). A frame's payload is kept (unmasked) until it is whole; the header bytes are only read once all of
/// them arrived.
package struct WebSocketFrameParser: Sendable {
    /// Which end reads: a server reads client frames, which must be masked; a client reads server frames, which
    /// must not be.
    package enum Role: Sendable, Hashable {
        case server
        case client
    }

    /// What one call found.
    package enum Outcome: Sendable, Hashable {
        /// The bytes end inside a frame: call again with more.
        case needsMore
        /// A whole frame.
        case frame(WebSocketFrame)
        /// The bytes break the protocol; the connection must close with this close. Every later call says the same.
        case refused(WebSocketClose)
    }

    private struct Header {
        var fin: Bool
        var opcode: WebSocketOpcode
        var length: Int
        var mask: WebSocketMaskingKey?
    }

    /// Who reads.
    package let role: Role
    /// The largest payload accepted, in bytes.
    package let maxFrameSize: Int
    /// The header of the frame whose payload is arriving, `nil` between frames.
    private var header: Header?
    private var payload = Data()
    private var refusal: WebSocketClose?

    /// A parser for `role`, refusing payloads over `maxFrameSize` bytes.
    package init(role: Role, maxFrameSize: Int) {
        self.role = role
        self.maxFrameSize = max(0, maxFrameSize)
    }

    /// Reads from the start of `bytes`, up to the end of the first frame that completes; returns how many bytes it
    /// consumed (the caller drops them and passes the rest next time) and what it found. On ``Outcome/needsMore``
    /// only the start of a header (at most 13 bytes) may be left unconsumed, to be passed again with what follows.
    package mutating func parse(_ bytes: UnsafeRawBufferPointer) -> (consumed: Int, outcome: Outcome) {
        if let refusal { return (0, .refused(refusal)) }
        var consumed = 0
        if header == nil {
            switch readHeader(bytes) {
            case .incomplete:
                return (0, .needsMore)
            case .refused(let close):
                refusal = close
                return (0, .refused(close))
            case .header(let read, let size):
                header = read
                consumed = size
                payload = Data()
                payload.reserveCapacity(min(read.length, 1 << 20))
            }
        }
        guard let current = header else { return (consumed, .needsMore) }
        let take = min(current.length - payload.count, bytes.count - consumed)
        if take > 0 {
            let offset = payload.count
            payload.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[consumed..<(consumed + take)]))
            if let mask = current.mask {
                payload.withUnsafeMutableBytes { all in
                    mask.apply(to: UnsafeMutableRawBufferPointer(rebasing: all[offset...]), startingAt: offset)
                }
            }
            consumed += take
        }
        guard payload.count == current.length else { return (consumed, .needsMore) }
        header = nil
        defer { payload = Data() }
        return (consumed, .frame(WebSocketFrame(fin: current.fin, opcode: current.opcode, payload: payload)))
    }

    private enum HeaderRead {
        case incomplete
        case refused(WebSocketClose)
        case header(Header, size: Int)
    }

    /// The header at the start of `bytes` when all of it is there (2 to 14 bytes), checked.
    private func readHeader(_ bytes: UnsafeRawBufferPointer) -> HeaderRead {
        guard bytes.count >= 2 else { return .incomplete }
        let first = bytes[0]
        let second = bytes[1]
        guard first & 0x70 == 0 else { return .refused(.protocolError("A reserved bit is set, but no extension was negotiated.")) }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            return .refused(.protocolError("The opcode \(first & 0x0F) is reserved."))
        }
        let fin = first & 0x80 != 0
        let masked = second & 0x80 != 0
        let shortLength = Int(second & 0x7F)
        if opcode.isControl {
            guard fin else { return .refused(.protocolError("A control frame cannot be fragmented.")) }
            guard shortLength <= WebSocketFrame.maxControlPayload else {
                return .refused(.protocolError("A control frame cannot carry more than 125 bytes."))
            }
        }
        switch (role, masked) {
        case (.server, false): return .refused(.protocolError("A client's frame must be masked."))
        case (.client, true): return .refused(.protocolError("A server's frame must not be masked."))
        default: break
        }
        var size = 2
        var length = UInt64(shortLength)
        if shortLength >= 126 {
            let extra = shortLength == 126 ? 2 : 8
            guard bytes.count >= size + extra else { return .incomplete }
            length = 0
            for index in size..<(size + extra) { length = length << 8 | UInt64(bytes[index]) }
            size += extra
            guard length >> 63 == 0 else { return .refused(.protocolError("A 64-bit payload length must have its top bit clear.")) }
        }
        guard length <= UInt64(maxFrameSize) else {
            return .refused(.tooBig("A frame of \(length) bytes is over the limit of \(maxFrameSize) bytes."))
        }
        var mask: WebSocketMaskingKey?
        if masked {
            guard bytes.count >= size + 4 else { return .incomplete }
            mask = WebSocketMaskingKey(
                UInt32(bytes[size]) << 24 | UInt32(bytes[size + 1]) << 16 | UInt32(bytes[size + 2]) << 8 | UInt32(bytes[size + 3]))
            size += 4
        }
        return .header(Header(fin: fin, opcode: opcode, length: Int(length), mask: mask), size: size)
    }
}
