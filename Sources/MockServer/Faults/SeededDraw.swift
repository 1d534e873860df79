/// Counter-based random draws: the value for (seed, rule, count, stream) is a pure function of those
/// four numbers, so a decision does not depend on which thread asked first or on what other rules drew.
/// Uses the SplitMix64 finaliser, which is enough for test schedules (this is not cryptography).
enum SeededDraw {
    /// Independent uses of the same (seed, rule, count) draw from different streams.
    enum Stream: UInt64 {
        case trigger = 1
        case latency = 2
        case latencySecond = 3
        case garbage = 4
    }

    /// A uniform value in [0, 1).
    static func unit(seed: UInt64, rule: Int, count: Int, stream: Stream) -> Double {
        Double(bits(seed: seed, rule: rule, count: count, stream: stream) >> 11) * 0x1.0p-53
    }

    /// 64 well-mixed bits.
    static func bits(seed: UInt64, rule: Int, count: Int, stream: Stream) -> UInt64 {
        var x = seed
        x = mix(x &+ 0x9E37_79B9_7F4A_7C15 &* (UInt64(truncatingIfNeeded: rule) &+ 1))
        x = mix(x &+ 0xBF58_476D_1CE4_E5B9 &* (UInt64(truncatingIfNeeded: count) &+ 1))
        return mix(x &+ 0x94D0_49BB_1331_11EB &* stream.rawValue)
    }

    /// The seed a test's draws use: `seed` itself when the server serves no test in particular (`identity`
    /// `nil`, as for `CassetteServer(...)` or `recorder replay`), so that such a server draws as it always did;
    /// else `seed` mixed with a stable hash of `identity` (the test's cassettes and name), so that each test
    /// draws its own sequence, the same on every run and machine. FNV-1a, not `Hasher`, which is seeded
    /// afresh in every process.
    static func seed(_ seed: UInt64, identity: String?) -> UInt64 {
        guard let identity else { return seed }
        return mix(seed &+ 0xD6E8_FEB8_6659_FD93 &* fnv1a(identity))
    }

    /// The 64-bit FNV-1a hash of `text`'s UTF-8 bytes.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// `count` bytes from a generator seeded by `seed`.
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        var result: [UInt8] = []
        result.reserveCapacity(count)
        while result.count < count {
            var word = generator.next()
            for _ in 0..<min(8, count - result.count) {
                result.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return result
    }

    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A seeded random number generator (SplitMix64), for reproducible byte sequences and test inputs.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SeededDraw.mix(state)
    }
}
