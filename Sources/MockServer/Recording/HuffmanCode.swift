/// A canonical Huffman code (RFC 1951 §3.2.2) made from its code lengths, with a lookup table for the codes
/// of up to ``tableBits`` bits (nearly every symbol decoded) and a search by length for the longer ones.
struct HuffmanCode: Sendable {
    static let maxLength = 15
    static let tableBits = 10
    static let tableSize = 1 << tableBits

    /// Indexed by the next ``tableBits`` input bits: `symbol << 4 | length` for a code of up to
    /// ``tableBits`` bits that those bits start with, else 0.
    let table: [UInt16]
    /// How many codes have each length, 0...15.
    private let lengthCounts: [Int]
    /// The symbols in code order: by length, then by symbol.
    private let sortedSymbols: [UInt16]

    /// The code with these lengths, one per symbol, 0 for a symbol without a code. A code set that leaves
    /// some bit patterns unused is accepted (a stream that uses one fails to decode); one that assigns more
    /// codes of a length than there are patterns throws ``Inflater/Failure/invalidCodeLengths``.
    init(lengths: ArraySlice<UInt8>) throws(Inflater.Failure) {
        var lengthCounts = [Int](repeating: 0, count: Self.maxLength + 1)
        for length in lengths {
            lengthCounts[Int(length)] += 1
        }
        lengthCounts[0] = 0
        // Each length has twice the patterns the previous one left unused.
        var unused = 1
        for length in 1...Self.maxLength {
            unused = unused * 2 - lengthCounts[length]
            guard unused >= 0 else { throw .invalidCodeLengths }
        }

        // First code of each length, as §3.2.2 computes it, and the position of its symbols in code order.
        var nextCode = [Int](repeating: 0, count: Self.maxLength + 1)
        var nextSlot = [Int](repeating: 0, count: Self.maxLength + 1)
        var code = 0
        var slot = 0
        for length in 1...Self.maxLength {
            code = (code + lengthCounts[length - 1]) << 1
            nextCode[length] = code
            nextSlot[length] = slot
            slot += lengthCounts[length]
        }

        var sortedSymbols = [UInt16](repeating: 0, count: slot)
        var table = [UInt16](repeating: 0, count: Self.tableSize)
        for (symbol, length) in lengths.enumerated() where length != 0 {
            let length = Int(length)
            sortedSymbols[nextSlot[length]] = UInt16(symbol)
            nextSlot[length] += 1
            let code = nextCode[length]
            nextCode[length] += 1
            guard length <= Self.tableBits else { continue }
            // The table is indexed by bits in arrival order, so the code's bits go in reversed; every
            // index whose low `length` bits are the code decodes to this symbol.
            var reversed = 0
            for bit in 0..<length {
                reversed |= (code >> bit & 1) << (length - 1 - bit)
            }
            let entry = UInt16(symbol << 4 | length)
            var index = reversed
            while index < Self.tableSize {
                table[index] = entry
                index += 1 << length
            }
        }
        self.table = table
        self.lengthCounts = lengthCounts
        self.sortedSymbols = sortedSymbols
    }

    init(lengths: [UInt8]) throws(Inflater.Failure) {
        try self.init(lengths: lengths[...])
    }

    /// The symbol whose code starts `bits` (first bit lowest) and the code's length, for a code longer than
    /// the table covers or none at all: walks the lengths, comparing the code read so far with the range of
    /// codes of that length.
    func decodeLong(_ bits: UInt64) throws(Inflater.Failure) -> (symbol: Int, length: Int) {
        var code = 0  // the bits read so far, first one highest
        var first = 0  // the first code of this length
        var slot = 0  // the position of that code's symbol in `sortedSymbols`
        for length in 1...Self.maxLength {
            code |= Int(truncatingIfNeeded: bits >> UInt64(length - 1)) & 1
            let count = lengthCounts[length]
            if code >= first, code - first < count {
                return (Int(sortedSymbols[slot + code - first]), length)
            }
            slot += count
            first = (first + count) << 1
            code <<= 1
        }
        throw .invalidCode
    }

    /// §3.2.6: literals 0-143 have 8 bits, 144-255 9, 256-279 7, 280-287 8.
    static let fixedLiterals: HuffmanCode = {
        var lengths = [UInt8](repeating: 8, count: 288)
        for symbol in 144...255 { lengths[symbol] = 9 }
        for symbol in 256...279 { lengths[symbol] = 7 }
        // Complete, so it cannot fail.
        return try! HuffmanCode(lengths: lengths)
    }()

    /// §3.2.6: 32 distance codes of 5 bits (30 and 31 never occur in valid data).
    static let fixedDistances: HuffmanCode = try! HuffmanCode(lengths: [UInt8](repeating: 5, count: 32))
}
