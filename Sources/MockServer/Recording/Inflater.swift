import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Raw DEFLATE (RFC 1951) decompression: stored, fixed-Huffman and dynamic-Huffman blocks.
///
/// Any input either decodes or fails with a ``Failure``: every read is checked against the input's end,
/// every loop consumes input, and the output never grows past the limit it is given.
struct Inflater: ~Copyable {
    /// Why a DEFLATE stream could not be decoded; ``ContentCoding`` turns it into a sentence naming the coding.
    enum Failure: Error, Equatable {
        /// The input ends before the final block does.
        case truncated
        /// A block header has the reserved type 3.
        case reservedBlockType
        /// A stored block's length is not the complement of the length that follows it.
        case storedLengthMismatch
        /// A dynamic block's code lengths do not describe a usable Huffman code.
        case invalidCodeLengths
        /// The data holds a code that no symbol has, or a length or distance symbol the format reserves.
        case invalidCode
        /// A back-reference reaches before the first byte of the output.
        case distanceTooFarBack
        /// The output would be larger than the limit.
        case tooLarge
    }

    /// Decodes the DEFLATE stream at the start of `input`, which may be followed by other bytes (a gzip or
    /// zlib trailer). Returns the decoded bytes and how many bytes of `input` the stream took, up to the end
    /// of its last byte. Throws ``Failure/tooLarge`` rather than produce more than `limit` bytes.
    static func inflate(_ input: UnsafeRawBufferPointer, limit: Int) throws(Failure) -> (output: Data, consumed: Int) {
        var inflater = Inflater(input: input, limit: limit)
        try inflater.run()
        let consumed = inflater.position - inflater.bitCount / 8
        return (inflater.takeOutput(), consumed)
    }

    /// Decodes the whole blocks of a DEFLATE stream that arrives in pieces: `input` holds what was not decoded
    /// yet, its first `skippingBits` (0 to 7) bits excepted, and `window` the output so far (its last 32 KiB
    /// suffice), which back-references may reach into. Returns the output of the whole blocks in `input`, how
    /// many of its bits they took (a block still arriving is left for the next call, which decodes it again
    /// from its start) and whether the last of them was the final block. Throws for data that no more input
    /// could make valid, and ``Failure/tooLarge`` rather than produce more than `limit` bytes.
    static func inflateWholeBlocks(
        _ input: UnsafeRawBufferPointer, skippingBits: Int, window: Data,
        limit: Int
    ) throws(Failure) -> (output: Data, consumedBits: Int, isFinal: Bool) {
        var inflater = Inflater(input: input, limit: window.count + limit)
        try inflater.reserve(window.count)
        window.withUnsafeBytes { bytes in
            if !bytes.isEmpty { UnsafeMutableRawPointer(inflater.storage).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count) }
        }
        inflater.count = window.count
        var end = (bits: 0, count: window.count, isFinal: false)
        do throws(Failure) {
            _ = try inflater.bits(skippingBits)
            end.bits = skippingBits
            while !end.isFinal {
                let isFinal = try inflater.block()
                end = (inflater.position * 8 - inflater.bitCount, inflater.count, isFinal)
            }
        } catch .truncated {
            // The block still arriving waits for more input.
        }
        let output = Data(bytes: inflater.storage + window.count, count: end.count - window.count)
        return (output, end.bits, end.isFinal)
    }

    private let input: UnsafeRawBufferPointer
    /// The next input byte to load into `bitBuffer`.
    private var position = 0
    /// Loaded input bits not yet used, the next one lowest; bits above `bitCount` are zero.
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0

    /// The output so far, from `malloc`: `realloc` grows large buffers without copying them, and the result
    /// becomes the `Data` without a copy.
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    private let limit: Int

    private init(input: UnsafeRawBufferPointer, limit: Int) {
        self.input = input
        self.limit = max(0, limit)
        // Text and JSON usually expand three to ten times; growth doubles from there.
        capacity = min(self.limit, max(4096, input.count.multipliedReportingOverflow(by: 4).partialValue))
        storage = Self.reallocate(nil, capacity: capacity)
    }

    deinit {
        free(storage)
    }

    /// The output, which the `Data` now owns.
    private consuming func takeOutput() -> Data {
        let output: Data
        if count == 0 {
            free(storage)
            output = Data()
        } else {
            output = Data(bytesNoCopy: Self.reallocate(storage, capacity: count), count: count, deallocator: .free)
        }
        discard self
        return output
    }

    private static func reallocate(_ pointer: UnsafeMutablePointer<UInt8>?, capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let raw = realloc(pointer, max(1, capacity)) else {
            fatalError("out of memory for \(capacity) bytes of decoded content")
        }
        return raw.bindMemory(to: UInt8.self, capacity: max(1, capacity))
    }

    // MARK: Blocks

    private mutating func run() throws(Failure) {
        while try !block() {}
        // The stream ends at a byte boundary; the rest of the last byte is padding.
        bitBuffer >>= UInt64(bitCount % 8)
        bitCount -= bitCount % 8
    }

    /// Decodes the next block; returns whether it was the final one.
    private mutating func block() throws(Failure) -> Bool {
        let header = try bits(3)
        switch header >> 1 {
        case 0: try storedBlock()
        case 1: try compressedBlock(literals: HuffmanCode.fixedLiterals, distances: HuffmanCode.fixedDistances)
        case 2:
            let (literals, distances) = try dynamicCodes()
            try compressedBlock(literals: literals, distances: distances)
        default: throw .reservedBlockType
        }
        return header & 1 == 1
    }

    /// §3.2.4: skip to a byte boundary, LEN and its complement NLEN, then LEN bytes copied as they are.
    private mutating func storedBlock() throws(Failure) {
        // Give back the whole bytes already loaded, so that the block is read straight from the input.
        position -= bitCount / 8
        bitBuffer = 0
        bitCount = 0
        guard input.count - position >= 4 else { throw .truncated }
        let length = Int(input[position]) | Int(input[position + 1]) << 8
        let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
        position += 4
        guard length ^ complement == 0xFFFF else { throw .storedLengthMismatch }
        guard input.count - position >= length else { throw .truncated }
        try reserve(length)
        if length > 0 {
            UnsafeMutableRawPointer(storage + count).copyMemory(from: input.baseAddress! + position, byteCount: length)
        }
        count += length
        position += length
    }

    /// §3.2.7: the code-length code, then the literal/length and distance code lengths it encodes.
    private mutating func dynamicCodes() throws(Failure) -> (literals: HuffmanCode, distances: HuffmanCode) {
        let literalCount = try bits(5) + 257
        let distanceCount = try bits(5) + 1
        let codeLengthCount = try bits(4) + 4
        // 286 and 287 literal/length codes, 30 and 31 distance codes exist in the format but are never valid.
        guard literalCount <= 286, distanceCount <= 30 else { throw .invalidCodeLengths }

        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for index in 0..<codeLengthCount {
            codeLengthLengths[Self.codeLengthOrder[index]] = UInt8(try bits(3))
        }
        let codeLengthCode = try HuffmanCode(lengths: codeLengthLengths)

        var lengths = [UInt8](repeating: 0, count: literalCount + distanceCount)
        var index = 0
        while index < lengths.count {
            let symbol = try decode(codeLengthCode)
            let value: UInt8
            let repeats: Int
            switch symbol {
            case 0...15:
                lengths[index] = UInt8(symbol)
                index += 1
                continue
            case 16:
                guard index > 0 else { throw .invalidCodeLengths }
                value = lengths[index - 1]
                repeats = try bits(2) + 3
            case 17:
                value = 0
                repeats = try bits(3) + 3
            default:  // 18; the code-length code has no other symbols
                value = 0
                repeats = try bits(7) + 11
            }
            guard repeats <= lengths.count - index else { throw .invalidCodeLengths }
            for offset in 0..<repeats {
                lengths[index + offset] = value
            }
            index += repeats
        }
        // Without a code for end-of-block the block could never end.
        guard lengths[256] != 0 else { throw .invalidCodeLengths }
        return (try HuffmanCode(lengths: lengths[0..<literalCount]), try HuffmanCode(lengths: lengths[literalCount...]))
    }

    /// §3.2.5: literals, end-of-block, and length/distance pairs that copy earlier output.
    private mutating func compressedBlock(literals: HuffmanCode, distances: HuffmanCode) throws(Failure) {
        // Read once rather than through the global accessor at every symbol.
        let lengthBase = Self.lengthBase, lengthExtraBits = Self.lengthExtraBits
        let distanceBase = Self.distanceBase, distanceExtraBits = Self.distanceExtraBits
        while true {
            let symbol = try decode(literals)
            if symbol < 256 {
                try reserve(1)
                storage[count] = UInt8(truncatingIfNeeded: symbol)
                count += 1
                continue
            }
            if symbol == 256 { return }
            guard symbol <= 285 else { throw .invalidCode }
            let length = Int(lengthBase[symbol - 257]) + (try bits(Int(lengthExtraBits[symbol - 257])))
            let distanceSymbol = try decode(distances)
            guard distanceSymbol <= 29 else { throw .invalidCode }
            let distance = Int(distanceBase[distanceSymbol]) + (try bits(Int(distanceExtraBits[distanceSymbol])))
            guard distance <= count else { throw .distanceTooFarBack }
            try reserve(length)
            let target = storage + count
            let source = target - distance
            // When the copy overlaps what it writes (distance < length), the output from `source` on repeats
            // with period `distance`, so chunks that end before the bytes they write can be copied whole:
            // each starts a whole number of periods in and may be as long as what lies before it.
            var copied = 0
            while copied < length {
                let chunk = min(length - copied, distance + copied)
                (target + copied).update(from: source, count: chunk)
                copied += chunk
            }
            count += length
        }
    }

    // MARK: Output

    /// Makes room for `extra` more output bytes, or throws if that would pass the limit.
    @inline(__always)
    private mutating func reserve(_ extra: Int) throws(Failure) {
        guard extra > capacity - count else { return }
        guard extra <= limit - count else { throw .tooLarge }
        var newCapacity = capacity
        while newCapacity - count < extra {
            newCapacity = newCapacity > limit / 2 ? limit : newCapacity * 2
        }
        storage = Self.reallocate(storage, capacity: newCapacity)
        capacity = newCapacity
    }

    // MARK: Bits

    /// Loads whole input bytes until at least 57 bits are loaded or the input ends.
    @inline(__always)
    private mutating func refill() {
        while bitCount <= 56, position < input.count {
            bitBuffer |= UInt64(input[position]) << UInt64(bitCount)
            bitCount += 8
            position += 1
        }
    }

    /// The next `count` (at most 16) bits as a number, the first one lowest (§3.1.1).
    @inline(__always)
    private mutating func bits(_ count: Int) throws(Failure) -> Int {
        if bitCount < count {
            refill()
            guard bitCount >= count else { throw .truncated }
        }
        let value = Int(truncatingIfNeeded: bitBuffer & ((1 << UInt64(count)) - 1))
        bitBuffer >>= UInt64(count)
        bitCount -= count
        return value
    }

    /// The next symbol of `code`. Huffman codes are packed first bit first (§3.1.1), so the table is
    /// indexed by the code's bits in the order they arrive.
    @inline(__always)
    private mutating func decode(_ code: HuffmanCode) throws(Failure) -> Int {
        if bitCount < HuffmanCode.maxLength { refill() }
        // Past the end of the input the buffer reads as zeros; a code that needs those bits is truncated.
        let entry = code.table[Int(truncatingIfNeeded: bitBuffer) & (HuffmanCode.tableSize - 1)]
        let length: Int
        let symbol: Int
        if entry != 0 {
            length = Int(entry & 0xF)
            symbol = Int(entry >> 4)
        } else {
            do throws(Failure) {
                (symbol, length) = try code.decodeLong(bitBuffer)
            } catch {
                // Bits past the end of the input read as zeros, which may be no code: the code is still arriving.
                throw bitCount < HuffmanCode.maxLength ? .truncated : error
            }
        }
        guard length <= bitCount else { throw .truncated }
        bitBuffer >>= UInt64(length)
        bitCount -= length
        return symbol
    }

    // MARK: Tables of §3.2.5 and §3.2.7

    private static let lengthBase: [UInt16] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    private static let lengthExtraBits: [UInt8] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    private static let distanceBase: [UInt16] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
        4097, 6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtraBits: [UInt8] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
    /// The order in which a dynamic block lists the code-length code's lengths.
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
}
