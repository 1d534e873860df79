// Content decoding (gzip, zlib, raw DEFLATE): any bytes either decode within the limit or fail with one
// undecodableBody sentence, and a body that decodes fits a limit of exactly its decoded size and no less.
// The first byte picks the Content-Encoding (bits 0-1) and a small limit (bit 2); the rest is the body.
import Foundation
@testable import MockServer

private let contentEncodings = ["gzip", "deflate", "deflate, gzip", "x-gzip, identity"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContentDecoding(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let (selector, rest) = FuzzInput(start, count).selectorAndRest
    let contentEncoding = contentEncodings[Int(selector & 3)]
    let limit = selector & 4 == 0 ? ContentCoding.defaultLimit : 1024
    let body = Data(rest)
    let decoded: Data
    do {
        decoded = try ContentCoding.decode(body, contentEncoding: contentEncoding, limit: limit)
    } catch {
        let sentence = error.description
        require(error.code == .undecodableBody, "failed with code \(error.code): \(sentence)")
        require(
            sentence.hasPrefix("The upstream's ") && sentence.hasSuffix(".") && !sentence.contains("\n"),
            "the failure is not one sentence: \(sentence)")
        return 0
    }
    require(decoded.count <= limit, "decoded \(decoded.count) bytes with a limit of \(limit)")
    // With two codings the limit also bounds the middle stage, which may be the larger.
    guard !contentEncoding.contains(","), !decoded.isEmpty else { return 0 }
    let again = try? ContentCoding.decode(body, contentEncoding: contentEncoding, limit: decoded.count)
    require(again == decoded, "a limit of exactly the decoded size (\(decoded.count) bytes) gave \(String(describing: again?.count))")
    do {
        let over = try ContentCoding.decode(body, contentEncoding: contentEncoding, limit: decoded.count - 1)
        require(false, "a limit one byte under the decoded size (\(decoded.count) bytes) gave \(over.count) bytes")
    } catch {
        require(error.description.hasSuffix("the limit for a recorded body."), "one byte under the limit failed otherwise: \(error)")
    }
    return 0
}
