// Cassette decoding: any bytes either fail with a MockServerError or give a cassette. Decoding all at once and
// decoding interaction by interaction (how `recorder replay` loads) agree, and a decoded cassette's encoding
// decodes to a cassette that encodes to the same bytes.
import Foundation
@testable import MockServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCassetteDecoding(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = Data(FuzzInput(start, count).bytes)
    let whole: Result<Cassette, MockServerError>
    do throws(MockServerError) {
        whole = .success(try Cassette(jsonData: data, source: "fuzz.json"))
    } catch {
        whole = .failure(error)
    }
    var streamed: [Interaction] = []
    let streaming: Result<Cassette, MockServerError>
    do throws(MockServerError) {
        streaming = .success(try Cassette.decode(data, source: "fuzz.json") { streamed.append($0) })
    } catch {
        streaming = .failure(error)
    }
    switch (whole, streaming) {
    case (.success(let cassette), .success(var header)):
        header.interactions = streamed
        require(header == cassette, "streamed decoding gave a different cassette")
        let encoded = cassette.encoded()
        do {
            let again = try Cassette(jsonData: encoded, source: "fuzz.json")
            require(again.encoded() == encoded, "encoding a re-decoded cassette gave different bytes")
        } catch {
            fatalError("fuzz invariant broken: an encoded cassette does not decode: \(error)")
        }
    case (.failure(let first), .failure(let second)):
        require(first.description == second.description, "decoders disagree: '\(first)' and '\(second)'")
    default:
        fatalError("fuzz invariant broken: one decoder accepted what the other refused: \(whole) vs \(streaming)")
    }
    return 0
}
