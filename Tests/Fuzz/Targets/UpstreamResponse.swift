// The recorder's reading of an upstream's answer: head, interim answers, then the body by its framing
// (length, chunked, or until the close). The same bytes are fed once whole and once in reads of random sizes,
// then the input ends; what comes out (the head, the body, whether the connection is reusable, or the error)
// must not depend on how the bytes were cut, and the reader must stop within the bytes it was given.
import Foundation
@testable import MockServer

private struct Outcome: Equatable {
    var head: UpstreamResponseHead?
    var body = Data()
    var reusable: Bool?
    var error: UpstreamResponseError?
}

private func read(_ bytes: ArraySlice<UInt8>, expectsBody: Bool, cuts: [Int]?) -> Outcome {
    var reader = UpstreamResponseReader(expectsBody: expectsBody)
    var outcome = Outcome()
    // Each step consumes bytes or ends; more steps than bytes (plus the head and the end) would be a loop.
    var budget = bytes.count + 4
    func drain() -> Bool {
        while budget > 0 {
            budget -= 1
            do {
                switch try reader.next() {
                case .needsMore:
                    return false
                case .head(let head):
                    require(outcome.head == nil, "two heads")
                    outcome.head = head
                case .body(let piece):
                    require(!piece.isEmpty, "an empty body piece")
                    outcome.body.append(piece)
                case .end(let reusable):
                    outcome.reusable = reusable
                    return true
                }
            } catch {
                outcome.error = error
                return true
            }
        }
        fatalError("fuzz invariant broken: the reader did not settle within \(bytes.count + 4) steps")
    }
    var from = bytes.startIndex
    for point in cuts ?? [bytes.count] {
        let to = bytes.startIndex + point
        bytes[from..<to].withUnsafeBytes { reader.append($0) }
        from = to
        if drain() { return outcome }
    }
    reader.endOfInput()
    _ = drain()
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUpstreamResponse(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let (selector, stream) = FuzzInput(start, count).selectorAndRest
    let expectsBody = selector & 1 == 0
    let whole = read(stream, expectsBody: expectsBody, cuts: nil)
    let split = read(stream, expectsBody: expectsBody, cuts: splitPoints(count: stream.count, seed: selector))
    // Bytes beyond the answer make it unreusable only when they arrived with it; the rest must agree.
    var comparable = split
    if whole.reusable == false, split.reusable == true { comparable.reusable = false }
    require(whole == comparable, "reads cut differently gave \(split) instead of \(whole)")
    return 0
}
