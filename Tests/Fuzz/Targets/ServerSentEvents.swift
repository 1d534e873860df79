// The package's server-sent event parser, as a ServiceKit streaming service meets a `text/event-stream` body: the same
// bytes fed once whole and once in chunks of random sizes (a CR and its LF may arrive apart, a character may be
// split) must give the same events.
import Foundation
@testable import ServiceReplayShared

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServerSentEvents(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let (selector, stream) = FuzzInput(start, count).selectorAndRest
    var whole = ServerSentEventParser()
    let expected = whole.feed(stream)
    var split = ServerSentEventParser()
    var events: [ServerSentEventParser.Event] = []
    var from = stream.startIndex
    for point in splitPoints(count: stream.count, seed: selector) {
        events += split.feed(stream[from..<(stream.startIndex + point)])
        from = stream.startIndex + point
    }
    require(events == expected, "chunks cut differently gave \(events) instead of \(expected)")
    return 0
}
