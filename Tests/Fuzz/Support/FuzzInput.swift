import Foundation

/// The bytes libFuzzer hands a target, with the helpers every target uses to cut them up.
struct FuzzInput {
    let bytes: [UInt8]

    init(_ start: UnsafeRawPointer?, _ count: Int) {
        bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    }

    /// The first byte, which targets use to pick a variant (limits, split pattern), and the rest.
    var selectorAndRest: (selector: UInt8, rest: ArraySlice<UInt8>) {
        guard let first = bytes.first else { return (0, []) }
        return (first, bytes.dropFirst())
    }

    /// The bytes as text (invalid UTF-8 repaired), so that string parsers see every shape of text.
    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Where to cut a stream of `count` bytes into reads, deterministically from `seed`: reads of 1 to 16 bytes
/// and the occasional large one, as a socket delivers them.
func splitPoints(count: Int, seed: UInt8) -> [Int] {
    var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
    var points: [Int] = []
    var position = 0
    while position < count {
        // xorshift64: cheap and enough to vary the cut positions.
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        let step = state % 8 == 0 ? Int(state >> 8 % 512) + 1 : Int(state >> 8 % 16) + 1
        position = min(count, position + step)
        points.append(position)
    }
    return points
}

/// Stops the run with `message` when `condition` is false; libFuzzer saves the input as a crash.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        fatalError("fuzz invariant broken: \(message())")
    }
}
