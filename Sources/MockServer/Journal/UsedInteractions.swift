/// Which interactions were used: a bit per interaction for the engine's cassettes (positions from 0, as the
/// engine numbers them), a set for any other reference, so marking one on every request costs no hashing.
struct UsedInteractions {
    private static let bitCassettes = 1 << 12
    private static let bitInteractions = 1 << 24
    private var bits: [[UInt64]] = []
    private var others: Set<Key> = []

    private struct Key: Hashable {
        let cassette: Int
        let index: Int
    }

    mutating func insert(cassette: Int, index: Int) {
        guard (0..<Self.bitCassettes).contains(cassette), (0..<Self.bitInteractions).contains(index) else {
            others.insert(Key(cassette: cassette, index: index))
            return
        }
        if bits.count <= cassette { bits += Array(repeating: [], count: cassette + 1 - bits.count) }
        let word = index >> 6
        if bits[cassette].count <= word { bits[cassette] += Array(repeating: 0, count: word + 1 - bits[cassette].count) }
        bits[cassette][word] |= 1 << UInt64(index & 63)
    }

    func contains(cassette: Int, index: Int) -> Bool {
        guard (0..<Self.bitCassettes).contains(cassette), (0..<Self.bitInteractions).contains(index) else {
            return others.contains(Key(cassette: cassette, index: index))
        }
        let word = index >> 6
        guard cassette < bits.count, word < bits[cassette].count else { return false }
        return bits[cassette][word] & (1 << UInt64(index & 63)) != 0
    }
}
