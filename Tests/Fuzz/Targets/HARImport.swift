// HAR import: any bytes either fail with a MockServerError or give a document; importing a document either fails
// with a MockServerError or gives a cassette, whose encoding decodes back to the same cassette.
import Foundation
@testable import MockServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHARImport(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    let (selector, rest) = input.selectorAndRest
    guard let document = try? HARDocument(jsonData: Data(rest), source: "fuzz.har") else { return 0 }
    // With and without a host filter, which takes other paths through the import.
    let options = selector & 1 == 0 ? HARImportOptions() : HARImportOptions(host: "api.example.com")
    guard let imported = try? Cassette.importing(document, options: options) else { return 0 }
    let encoded = imported.cassette.encoded()
    do {
        let decoded = try Cassette(jsonData: encoded, source: "fuzz.json")
        require(decoded.encoded() == encoded, "an imported cassette does not encode the same way twice")
    } catch {
        fatalError("fuzz invariant broken: an imported cassette does not decode: \(error)")
    }
    return 0
}
