// The WebSocket frame parser and message assembler, in both roles: the same bytes fed once whole and once in reads
// of random sizes must give the same frames, outcomes and refusal; every frame read must be within the limits and
// well-formed (control frames final and short); every refusal must carry a close a peer may send.
import Foundation
@testable import MockServerWire

private struct Read: Equatable {
    var outcomes: [WebSocketMessageAssembler.Outcome] = []
    var refusal: WebSocketClose?
}

private func read(_ stream: ArraySlice<UInt8>, cutAt points: [Int], role: WebSocketFrameParser.Role, limits: WebSocketLimits) -> Read {
    var parser = WebSocketFrameParser(role: role, maxFrameSize: limits.maxFrameSize)
    var assembler = WebSocketMessageAssembler(maxMessageSize: limits.maxMessageSize)
    var result = Read()
    var unread: [UInt8] = []
    var from = stream.startIndex
    reading: for point in points {
        unread.append(contentsOf: stream[from..<(stream.startIndex + point)])
        from = stream.startIndex + point
        while !unread.isEmpty {
            let (consumed, outcome) = unread.withUnsafeBytes { parser.parse($0) }
            require(consumed >= 0 && consumed <= unread.count, "consumed \(consumed) of \(unread.count) bytes")
            unread.removeFirst(consumed)
            switch outcome {
            case .needsMore:
                require(unread.count < 14, "needsMore left \(unread.count) bytes unconsumed, more than a header")
                continue reading
            case .refused(let close):
                result.refusal = close
                break reading
            case .frame(let frame):
                require(frame.payload.count <= limits.maxFrameSize, "a frame of \(frame.payload.count) bytes passed the limit")
                if frame.opcode.isControl {
                    require(frame.fin && frame.payload.count <= 125, "a control frame that is fragmented or over 125 bytes passed")
                }
                let assembled = assembler.add(frame)
                if case .refused(let close) = assembled {
                    result.refusal = close
                    break reading
                }
                if case .message(let message) = assembled, case .binary(let data) = message {
                    require(data.count <= limits.maxMessageSize, "a message of \(data.count) bytes passed the limit")
                }
                result.outcomes.append(assembled)
            }
        }
    }
    if let refusal = result.refusal {
        require(refusal.code.map { [1002, 1007, 1009].contains($0) } == true, "refused with \(refusal)")
        require(refusal.payload.count <= 125, "a refusal's close body does not fit a control frame")
    }
    return result
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketFrames(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let (selector, stream) = FuzzInput(start, count).selectorAndRest
    let role: WebSocketFrameParser.Role = selector & 1 == 0 ? .server : .client
    let limits = selector & 2 == 0 ? WebSocketLimits(maxFrameSize: 1 << 16, maxMessageSize: 1 << 18) : WebSocketLimits(maxFrameSize: 40, maxMessageSize: 100)
    let whole = read(stream, cutAt: stream.isEmpty ? [] : [stream.count], role: role, limits: limits)
    let split = read(stream, cutAt: splitPoints(count: stream.count, seed: selector), role: role, limits: limits)
    require(split == whole, "reads cut differently gave \(split) instead of \(whole)")
    return 0
}
