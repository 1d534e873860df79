// The chunked body decoder alone: the same bytes fed once whole and once in reads of random sizes must
// give the same body, the same outcome and, unless rejected, the same number of bytes left over for the
// next request.
import Foundation
@testable import MockServerWire

private struct Decoded: Equatable {
    var body = Data()
    var outcome = ChunkedBodyDecoder.Progress.needsMore
    var leftOver = 0
}

private func decode(_ stream: ArraySlice<UInt8>, cutAt points: [Int], limits: ParserLimits) -> Decoded {
    var decoder = ChunkedBodyDecoder()
    var result = Decoded()
    var unread: [UInt8] = []
    var from = stream.startIndex
    for point in points {
        unread.append(contentsOf: stream[from..<(stream.startIndex + point)])
        from = stream.startIndex + point
        let (consumed, outcome) = unread.withUnsafeBytes { decoder.decode($0, into: &result.body, limits: limits) }
        require(consumed >= 0 && consumed <= unread.count, "consumed \(consumed) of \(unread.count) bytes")
        unread.removeFirst(consumed)
        result.outcome = outcome
        if outcome != .needsMore { break }
    }
    require(result.body.count <= limits.maxBodyBytes, "a body of \(result.body.count) bytes passed the limit of \(limits.maxBodyBytes)")
    result.leftOver = unread.count + (stream.endIndex - from)
    return result
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChunkedBody(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let (selector, stream) = FuzzInput(start, count).selectorAndRest
    let limits =
        selector & 1 == 0
        ? ParserLimits.standard
        : ParserLimits(maxRequestLineLength: 64, maxHeaderBytes: 128, maxHeaderCount: 8, maxBodyBytes: 256, maxChunkLineLength: 24)
    let whole = decode(stream, cutAt: stream.isEmpty ? [] : [stream.count], limits: limits)
    let split = decode(stream, cutAt: splitPoints(count: stream.count, seed: selector), limits: limits)
    // After a rejection the connection closes, so what was left unread then does not matter.
    if case .rejected = whole.outcome {
        require(split.outcome == whole.outcome && split.body == whole.body, "reads cut differently gave \(split) instead of \(whole)")
    } else {
        require(split == whole, "reads cut differently gave \(split) instead of \(whole)")
    }
    return 0
}
