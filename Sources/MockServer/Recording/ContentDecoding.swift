import Foundation

/// The content codings (RFC 9110 §8.4.1) the recorder decodes itself, so that cassettes hold bodies decoded:
/// `gzip` and its alias `x-gzip` (RFC 1952), `deflate` (the zlib format of RFC 1950, or raw RFC 1951 data
/// without the zlib wrapper, as some servers send and browsers accept) and `identity`.
enum ContentCoding {
    /// The most bytes a decoded body may have unless told otherwise: 1 GiB.
    static let defaultLimit = 1 << 30

    /// Whether ``decode(_:contentEncoding:limit:)`` handles every coding a `Content-Encoding` value lists
    /// (names compared without case; an empty value means no coding).
    static func canDecode(_ contentEncoding: String) -> Bool {
        codings(in: contentEncoding).unknown == nil
    }

    /// `body` with the codings listed in `contentEncoding` undone. The value lists the codings in the
    /// order they were applied, so they are undone last first; names are compared without case, and an
    /// empty value or `identity` changes nothing. An empty body stays empty whatever the codings (responses
    /// to `HEAD`, and `204` and `304` responses, carry the `Content-Encoding` of content they do not send).
    ///
    /// gzip bodies may hold several members, decoded one after another as `gunzip` does; every member's
    /// CRC-32 and length, and a zlib body's Adler-32, must match.
    ///
    /// Throws ``MockServerError/Code/undecodableBody`` with one sentence naming the coding and the problem
    /// when a coding is unknown, when the data is truncated, corrupt or followed by other bytes, or when
    /// undoing a coding would give more than `limit` bytes (by default ``defaultLimit``).
    static func decode(_ body: Data, contentEncoding: String, limit: Int = defaultLimit) throws(MockServerError) -> Data {
        let (codings, unknown) = codings(in: contentEncoding)
        if let unknown {
            throw MockServerError(.undecodableBody, "The upstream's body is encoded with '\(unknown)', which the recorder cannot decode.")
        }
        var decoded = body
        guard !body.isEmpty else { return decoded }
        for coding in codings.reversed() where coding != .identity {
            let result = decoded.withUnsafeBytes { bytes -> Result<Data, Failure> in
                do throws(Failure) {
                    switch coding {
                    case .gzip: return .success(try gunzip(bytes, limit: limit))
                    case .deflate: return .success(try inflateHTTPDeflate(bytes, limit: limit))
                    case .identity: return .success(Data(bytes))
                    }
                } catch {
                    return .failure(error)
                }
            }
            switch result {
            case .success(let data): decoded = data
            case .failure(let failure): throw MockServerError(.undecodableBody, failure.sentence(coding: coding, limit: limit))
            }
        }
        return decoded
    }

    /// A coding this type decodes.
    enum Coding: String {
        case gzip, deflate, identity

        init?(name: String) {
            switch name {
            case "gzip", "x-gzip": self = .gzip
            case "deflate": self = .deflate
            case "identity": self = .identity
            default: return nil
            }
        }
    }

    /// The codings a `Content-Encoding` value lists, in the order applied, and the first name (lowercased)
    /// that is not one this type decodes, if any.
    static func codings(in contentEncoding: String) -> (codings: [Coding], unknown: String?) {
        var codings: [Coding] = []
        for element in contentEncoding.split(separator: ",") {
            let name = element.trimmingHTTPWhitespace().lowercased()
            // The list syntax (RFC 9110 §5.6.1) allows empty elements.
            if name.isEmpty { continue }
            guard let coding = Coding(name: name) else { return (codings, name) }
            codings.append(coding)
        }
        return (codings, nil)
    }

    // MARK: gzip (RFC 1952)

    /// The gzip members that make up `input`, decoded and joined.
    private static func gunzip(_ input: UnsafeRawBufferPointer, limit: Int) throws(Failure) -> Data {
        var output = Data()
        var offset = 0
        repeat {
            let member = UnsafeRawBufferPointer(rebasing: input[offset...])
            offset += try gunzipMember(member, afterMember: offset > 0, into: &output, limit: limit)
        } while offset < input.count
        return output
    }

    /// Decodes the gzip member at the start of `input` (`afterMember`: after another) onto `output`; returns its
    /// length in bytes.
    private static func gunzipMember(
        _ input: UnsafeRawBufferPointer, afterMember: Bool, into output: inout Data,
        limit: Int
    ) throws(Failure) -> Int {
        var offset = try gzipHeaderLength(input, afterMember: afterMember)
        let deflated = try inflate(UnsafeRawBufferPointer(rebasing: input[offset...]), limit: limit - output.count)
        offset += deflated.consumed
        // CRC32 and ISIZE, little-endian.
        guard input.count - offset >= 8 else { throw .truncated }
        let crc = littleEndianUInt32(input, at: offset)
        let size = littleEndianUInt32(input, at: offset + 4)
        guard deflated.output.withUnsafeBytes({ Checksums.crc32($0) }) == crc else { throw .crcMismatch }
        // ISIZE is the length modulo 2^32.
        guard UInt32(truncatingIfNeeded: deflated.output.count) == size else { throw .sizeMismatch }
        if output.isEmpty {
            output = deflated.output  // the usual single member, without a copy
        } else {
            output.append(deflated.output)
        }
        return offset + 8
    }

    /// The length of the gzip member header at the start of `input` (RFC 1952 §2.3): ID1 ID2 CM FLG MTIME(4) XFL
    /// OS, then the optional fields FLG announces. Throws ``Failure/truncated`` while it is incomplete; bytes
    /// that do not start with the gzip signature are ``Failure/notGzip``, or ``Failure/trailingData``
    /// `afterMember` (bytes after a member must be another member).
    static func gzipHeaderLength(_ input: UnsafeRawBufferPointer, afterMember: Bool) throws(Failure) -> Int {
        if input.count == 1, input[0] == 0x1F { throw .truncated }
        guard input.count >= 2, input[0] == 0x1F, input[1] == 0x8B else { throw afterMember ? .trailingData : .notGzip }
        guard input.count >= 10 else { throw .truncated }
        guard input[2] == 8 else { throw .unsupportedMethod(input[2]) }
        let flags = input[3]
        guard flags & 0xE0 == 0 else { throw .reservedFlags }
        var offset = 10
        if flags & 0x04 != 0 {  // FEXTRA: XLEN, then XLEN bytes
            guard input.count - offset >= 2 else { throw .truncated }
            let extraLength = Int(input[offset]) | Int(input[offset + 1]) << 8
            offset += 2
            guard input.count - offset >= extraLength else { throw .truncated }
            offset += extraLength
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {  // FNAME, FCOMMENT: zero-terminated
            guard let end = input[offset...].firstIndex(of: 0) else { throw .truncated }
            offset = end + 1
        }
        if flags & 0x02 != 0 {  // FHCRC: the low 16 bits of the header's CRC-32
            guard input.count - offset >= 2 else { throw .truncated }
            let expected = UInt16(input[offset]) | UInt16(input[offset + 1]) << 8
            let header = UnsafeRawBufferPointer(rebasing: input[..<offset])
            guard UInt16(truncatingIfNeeded: Checksums.crc32(header)) == expected else { throw .headerChecksumMismatch }
            offset += 2
        }
        return offset
    }

    // MARK: deflate (RFC 9110 §8.4.1.2: zlib, RFC 1950)

    /// A zlib stream, or raw DEFLATE data when `input` does not start with a zlib header.
    private static func inflateHTTPDeflate(_ input: UnsafeRawBufferPointer, limit: Int) throws(Failure) -> Data {
        guard hasZlibHeader(input) else {
            let deflated = try inflate(input, limit: limit)
            guard deflated.consumed == input.count else { throw .trailingData }
            return deflated.output
        }
        // FLG bit 5, FDICT: the data was compressed against a dictionary the body does not carry.
        guard input[1] & 0x20 == 0 else { throw .presetDictionary }
        let deflated = try inflate(UnsafeRawBufferPointer(rebasing: input[2...]), limit: limit)
        let trailer = 2 + deflated.consumed
        guard input.count - trailer >= 4 else { throw .truncated }
        guard input.count - trailer == 4 else { throw .trailingData }
        let expected =
            UInt32(input[trailer]) << 24 | UInt32(input[trailer + 1]) << 16 | UInt32(input[trailer + 2]) << 8
            | UInt32(input[trailer + 3])
        guard deflated.output.withUnsafeBytes({ Checksums.adler32($0) }) == expected else { throw .adlerMismatch }
        return deflated.output
    }

    /// Whether `input` starts with a zlib header: CM 8 (deflate), a window of at most 32 KiB (CINFO ≤ 7),
    /// and CMF·256 + FLG a multiple of 31. Raw DEFLATE data passes only if it starts with a non-final stored
    /// block whose padding bits are not all zero, which encoders do not write.
    static func hasZlibHeader(_ input: UnsafeRawBufferPointer) -> Bool {
        guard input.count >= 2 else { return false }
        let method = input[0], flags = input[1]
        return method & 0x0F == 8 && method >> 4 <= 7 && (UInt16(method) << 8 | UInt16(flags)) % 31 == 0
    }

    private static func inflate(_ input: UnsafeRawBufferPointer, limit: Int) throws(Failure) -> (output: Data, consumed: Int) {
        do throws(Inflater.Failure) {
            return try Inflater.inflate(input, limit: limit)
        } catch {
            throw .inflate(error)
        }
    }

    static func littleEndianUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    // MARK: Failures

    /// Why a body could not be decoded, before it is put into words.
    enum Failure: Error {
        case inflate(Inflater.Failure)
        case truncated
        case notGzip
        case unsupportedMethod(UInt8)
        case reservedFlags
        case headerChecksumMismatch
        case crcMismatch
        case sizeMismatch
        case presetDictionary
        case adlerMismatch
        case trailingData

        /// One sentence: "The upstream's gzip body is corrupt: the CRC-32 does not match."
        func sentence(coding: Coding, limit: Int) -> String {
            let subject = "The upstream's \(coding.rawValue) body"
            switch self {
            case .truncated, .inflate(.truncated): return "\(subject) is truncated."
            case .inflate(.tooLarge): return "\(subject) decodes to more than \(limit) bytes, the limit for a recorded body."
            case .notGzip: return "\(subject) is not gzip data: it does not start with the gzip signature."
            default: return "\(subject) is corrupt: \(problem)."
            }
        }

        private var problem: String {
            switch self {
            case .inflate(.reservedBlockType): "a block has the reserved type 3"
            case .inflate(.storedLengthMismatch): "a stored block's length does not match its complement"
            case .inflate(.invalidCodeLengths): "a block's Huffman code lengths are invalid"
            case .inflate(.invalidCode): "it holds a code that stands for no symbol"
            case .inflate(.distanceTooFarBack): "a back-reference points before the start of the data"
            case .unsupportedMethod(let method): "it names compression method \(method), not deflate (8)"
            case .reservedFlags: "its header sets reserved flags"
            case .headerChecksumMismatch: "the header's CRC-16 does not match"
            case .crcMismatch: "the CRC-32 does not match"
            case .sizeMismatch: "the length in its trailer does not match"
            case .presetDictionary: "it needs a preset dictionary, which HTTP does not provide"
            case .adlerMismatch: "the Adler-32 checksum does not match"
            case .trailingData: "other bytes follow the end of the compressed data"
            case .inflate(.truncated), .inflate(.tooLarge), .truncated, .notGzip: "the data is invalid"
            }
        }
    }
}
