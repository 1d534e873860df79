// The cassette JSON parser: any bytes either fail with a syntax error or parse to a document whose
// serialization parses back to the same document and serializes to the same bytes.
import Foundation
@testable import MockServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCassetteJSON(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = Data(FuzzInput(start, count).bytes)
    guard let document = try? CassetteJSON(parsing: data) else { return 0 }
    for pretty in [false, true] {
        let written = document.serialized(pretty: pretty)
        let reread: CassetteJSON
        do {
            reread = try CassetteJSON(parsing: written)
        } catch {
            fatalError("fuzz invariant broken: serialized JSON does not parse: \(error)")
        }
        require(reread == document, "the document changed through serialization")
        require(reread.serialized(pretty: pretty) == written, "serializing twice gave different bytes")
    }
    return 0
}
