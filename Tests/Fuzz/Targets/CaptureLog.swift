// Capture log reading: any bytes either are not a capture log or give its contents, never a crash. What is
// read writes back, through the log's own line writers, as a log that reads to the same interactions, and
// every interaction survives the cassette format unchanged.
import Foundation
@testable import MockServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCaptureLog(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let contents = CaptureLog.parse(Data(FuzzInput(start, count).bytes), source: "fuzz.json.log") else { return 0 }
    var lines = CaptureLog.headerLine(base: contents.base, cassette: contents.cassette)
    for interaction in contents.interactions {
        lines += CaptureLog.interactionLine(interaction)
    }
    guard let again = CaptureLog.parse(Data(lines), source: "fuzz.json.log") else {
        fatalError("fuzz invariant broken: a log written from what was read does not read")
    }
    require(again.interactions == contents.interactions, "a log written from what was read reads differently")
    var cassette = contents.cassette
    cassette.interactions = contents.interactions
    let encoded = cassette.encoded()
    do {
        let decoded = try Cassette(jsonData: encoded, source: "fuzz.json")
        require(decoded.encoded() == encoded, "a cassette from a log does not survive its own format")
    } catch {
        fatalError("fuzz invariant broken: a cassette from a log does not decode: \(error)")
    }
    return 0
}
