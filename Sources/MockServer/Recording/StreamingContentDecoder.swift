import Foundation

/// Undoes a body's `Content-Encoding` while the body arrives, so that a coded stream reaches the client and
/// the cassette as it comes rather than at its end (see ``UpstreamConnection``). Each piece gives what its
/// whole DEFLATE blocks decode to; a block still arriving waits for the next piece. Servers that compress a
/// stream flush a block per write (an event of a `text/event-stream`), so the events come out as they went in.
///
/// It takes one coding, gzip (any number of members) or deflate (zlib or raw), and checks every checksum and
/// limit as ``ContentCoding/decode(_:contentEncoding:limit:)`` does, with the same sentences.
struct StreamingContentDecoder {
    /// What the decoder waits for next.
    private enum Stage {
        /// A gzip member's header (`afterMember`: another member may follow one that ended, or nothing), or
        /// the first two bytes of a deflate body, which tell zlib from raw DEFLATE.
        case header(afterMember: Bool)
        /// DEFLATE blocks.
        case blocks
        /// The gzip member's CRC-32 and size, or the zlib stream's Adler-32.
        case trailer
        /// Nothing: the body is complete.
        case ended
    }

    /// Back-references reach at most 32 KiB back (RFC 1951 §3.2.5).
    private static let windowSize = 32 * 1024

    private let coding: ContentCoding.Coding
    private let limit: Int
    private var stage = Stage.header(afterMember: false)
    /// Input not decoded yet; its first `skippedBits` bits were.
    private var pending: [UInt8] = []
    private var skippedBits = 0
    /// The last output of the current gzip member or deflate stream, for back-references.
    private var window = Data()
    private var zlib = false
    private var crc: UInt32 = 0
    private var size: UInt32 = 0
    private var adler: UInt32 = 1
    private var produced = 0

    /// A decoder for a body whose `Content-Encoding` is `contentEncoding`, or `nil` unless it lists exactly one
    /// of gzip, `x-gzip` and deflate (`identity` aside): the caller then collects the body whole. At most
    /// `limit` decoded bytes (by default ``ContentCoding/defaultLimit``).
    init?(contentEncoding: String, limit: Int = ContentCoding.defaultLimit) {
        let (codings, unknown) = ContentCoding.codings(in: contentEncoding)
        let applied = codings.filter { $0 != .identity }
        guard unknown == nil, applied.count == 1 else { return nil }
        coding = applied[0]
        self.limit = limit
    }

    /// Takes the next piece of the coded body and returns what it decodes to, which may be nothing yet.
    /// - Throws: ``MockServerError/Code/undecodableBody`` with the sentence ``ContentCoding`` gives, when no
    ///   more input could make the body valid, or the decoded body would pass the limit.
    mutating func add(_ piece: Data) throws(MockServerError) -> Data {
        pending.append(contentsOf: piece)
        do throws(ContentCoding.Failure) {
            return try decodeAvailable()
        } catch {
            throw MockServerError(.undecodableBody, error.sentence(coding: coding, limit: limit))
        }
    }

    /// Notes that the body ended.
    /// - Throws: ``MockServerError/Code/undecodableBody`` when it ended before its coding did.
    func finish() throws(MockServerError) {
        let complete =
            switch stage {
            case .ended: true
            case .header(let afterMember): afterMember && pending.isEmpty
            case .blocks, .trailer: false
            }
        guard complete else {
            throw MockServerError(.undecodableBody, ContentCoding.Failure.truncated.sentence(coding: coding, limit: limit))
        }
    }

    private mutating func decodeAvailable() throws(ContentCoding.Failure) -> Data {
        var output = Data()
        while true {
            switch stage {
            case .header(let afterMember):
                guard try takeHeader(afterMember: afterMember) else { return output }
                stage = .blocks
            case .blocks:
                guard try takeBlocks(into: &output) else { return output }
                stage = coding == .deflate && !zlib ? .ended : .trailer
            case .trailer:
                guard try takeTrailer() else { return output }
                stage = coding == .gzip ? .header(afterMember: true) : .ended
            case .ended:
                guard pending.isEmpty else { throw .trailingData }
                return output
            }
        }
    }

    /// Takes a gzip member's header, or tells a zlib stream from raw DEFLATE; `false` while it is incomplete.
    private mutating func takeHeader(afterMember: Bool) throws(ContentCoding.Failure) -> Bool {
        window = Data()
        if coding == .gzip {
            guard !pending.isEmpty else { return false }
            let header = pending.withUnsafeBytes { bytes in
                Result { () throws(ContentCoding.Failure) in try ContentCoding.gzipHeaderLength(bytes, afterMember: afterMember) }
            }
            let length: Int
            switch header {
            case .success(let count): length = count
            case .failure(.truncated): return false
            case .failure(let failure): throw failure
            }
            pending.removeFirst(length)
            crc = 0
            size = 0
            return true
        }
        // The shortest DEFLATE stream takes two bytes, so two always tell.
        guard pending.count >= 2 else { return false }
        zlib = pending.withUnsafeBytes { ContentCoding.hasZlibHeader($0) }
        if zlib {
            guard pending[1] & 0x20 == 0 else { throw .presetDictionary }
            pending.removeFirst(2)
        }
        return true
    }

    /// Decodes the whole blocks that have arrived onto `output`; `true` once the final block is among them.
    private mutating func takeBlocks(into output: inout Data) throws(ContentCoding.Failure) -> Bool {
        let blocks = pending.withUnsafeBytes { bytes in
            Result { () throws(Inflater.Failure) in
                try Inflater.inflateWholeBlocks(bytes, skippingBits: skippedBits, window: window, limit: limit - produced)
            }
        }
        let decoded: (output: Data, consumedBits: Int, isFinal: Bool)
        switch blocks {
        case .success(let blocks): decoded = blocks
        case .failure(let failure): throw .inflate(failure)
        }
        pending.removeFirst(decoded.consumedBits / 8)
        skippedBits = decoded.consumedBits % 8
        if !decoded.output.isEmpty {
            decoded.output.withUnsafeBytes { bytes in
                if coding == .gzip {
                    crc = Checksums.crc32(bytes, continuing: crc)
                } else if zlib {
                    adler = Checksums.adler32(bytes, continuing: adler)
                }
            }
            size &+= UInt32(truncatingIfNeeded: decoded.output.count)
            produced += decoded.output.count
            output.append(decoded.output)
            window.append(decoded.output)
            if window.count > Self.windowSize { window.removeFirst(window.count - Self.windowSize) }
        }
        guard decoded.isFinal else { return false }
        // The stream ends at a byte boundary; the rest of its last byte is padding.
        if skippedBits > 0 {
            pending.removeFirst()
            skippedBits = 0
        }
        return true
    }

    /// Checks the gzip member's CRC-32 and size, or the zlib stream's Adler-32; `false` while they are arriving.
    private mutating func takeTrailer() throws(ContentCoding.Failure) -> Bool {
        if coding == .gzip {
            guard pending.count >= 8 else { return false }
            let (expectedCRC, expectedSize) = pending.withUnsafeBytes { bytes in
                (ContentCoding.littleEndianUInt32(bytes, at: 0), ContentCoding.littleEndianUInt32(bytes, at: 4))
            }
            guard crc == expectedCRC else { throw .crcMismatch }
            guard size == expectedSize else { throw .sizeMismatch }
            pending.removeFirst(8)
            return true
        }
        guard pending.count >= 4 else { return false }
        let expected = UInt32(pending[0]) << 24 | UInt32(pending[1]) << 16 | UInt32(pending[2]) << 8 | UInt32(pending[3])
        guard adler == expected else { throw .adlerMismatch }
        pending.removeFirst(4)
        return true
    }
}
