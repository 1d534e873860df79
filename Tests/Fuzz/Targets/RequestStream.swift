// The server's request input path: head scanner, head parser, then the body by its framing (length or
// chunked), request after request as a client pipelines them. The same bytes are fed once whole and once
// in reads of random sizes; what comes out (each request or the rejection that ends the stream) must not
// depend on how the bytes were cut.
import Foundation
@testable import MockServerWire

/// What the input path produced from a stream.
private enum Event: Equatable {
    case request(method: String, target: String, headerCount: Int, framing: BodyFraming, body: Data)
    case rejected(RequestRejection)
}

/// A model of `Connection`'s reading loop without the socket.
private struct InputPath {
    let limits: ParserLimits
    var buffer: [UInt8] = []
    var unreadStart = 0
    var scanner = RequestHeadScanner()
    var pending: (head: RequestHead, remaining: Int?, decoder: ChunkedBodyDecoder, body: Data)?
    var events: [Event] = []

    var isStopped: Bool {
        if case .rejected = events.last { return true }
        return false
    }

    mutating func receive(_ bytes: ArraySlice<UInt8>) {
        guard !isStopped else { return }
        buffer.append(contentsOf: bytes)
        process()
    }

    private mutating func process() {
        while !isStopped {
            let unread = Array(buffer[unreadStart...])
            if var current = pending {
                if let remaining = current.remaining {
                    let take = min(remaining, unread.count)
                    current.body.append(contentsOf: unread[..<take])
                    unreadStart += take
                    guard take == remaining else {
                        current.remaining = remaining - take
                        pending = current
                        return
                    }
                } else {
                    let (consumed, outcome) = unread.withUnsafeBytes { current.decoder.decode($0, into: &current.body, limits: limits) }
                    require(consumed >= 0 && consumed <= unread.count, "the chunked decoder consumed \(consumed) of \(unread.count) bytes")
                    unreadStart += consumed
                    switch outcome {
                    case .needsMore:
                        pending = current
                        return
                    case .rejected(let rejection):
                        events.append(.rejected(rejection))
                        return
                    case .complete:
                        break
                    }
                }
                require(current.body.count <= limits.maxBodyBytes, "a body of \(current.body.count) bytes passed the limit of \(limits.maxBodyBytes)")
                let request = current.head.request
                events.append(
                    .request(
                        method: request.method, target: request.target, headerCount: request.headers.count,
                        framing: current.head.framing, body: current.body))
                pending = nil
                continue
            }
            guard !unread.isEmpty else { return }
            let outcome = unread.withUnsafeBytes { scanner.scan($0, limits: limits) }
            switch outcome {
            case .incomplete:
                return
            case .rejected(let rejection):
                events.append(.rejected(rejection))
            case .complete(let start, let end):
                require(0 <= start && start < end && end <= unread.count, "the scanner reported a head at \(start)..<\(end) of \(unread.count) bytes")
                let parsed: Result<RequestHead, RequestRejection> = unread.withUnsafeBytes { raw in
                    do throws(RequestRejection) {
                        return .success(try RequestHeadParser.parse(UnsafeRawBufferPointer(rebasing: raw[start..<end]), limits: limits))
                    } catch {
                        return .failure(error)
                    }
                }
                switch parsed {
                case .failure(let rejection):
                    events.append(.rejected(rejection))
                case .success(let head):
                    require(
                        head.request.headers.count <= limits.maxHeaderCount,
                        "\(head.request.headers.count) headers passed the limit of \(limits.maxHeaderCount)")
                    unreadStart += end
                    scanner.reset()
                    switch head.framing {
                    case .none:
                        pending = (head, 0, ChunkedBodyDecoder(), Data())
                    case .length(let length):
                        require(length >= 0 && length <= limits.maxBodyBytes, "a Content-Length of \(length) passed the limit")
                        pending = (head, length, ChunkedBodyDecoder(), Data())
                    case .chunked:
                        pending = (head, nil, ChunkedBodyDecoder(), Data())
                    }
                }
            }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestStream(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let (selector, stream) = FuzzInput(start, count).selectorAndRest
    // Tight limits half of the time, so that every limit is reachable with short inputs.
    let limits =
        selector & 1 == 0
        ? ParserLimits.standard
        : ParserLimits(maxRequestLineLength: 64, maxHeaderBytes: 256, maxHeaderCount: 8, maxBodyBytes: 512, maxChunkLineLength: 24)

    var whole = InputPath(limits: limits)
    whole.receive(stream)

    var split = InputPath(limits: limits)
    var from = stream.startIndex
    for point in splitPoints(count: stream.count, seed: selector) {
        split.receive(stream[from..<(stream.startIndex + point)])
        from = stream.startIndex + point
    }
    require(split.events == whole.events, "reads cut differently gave \(split.events) instead of \(whole.events)")
    return 0
}
