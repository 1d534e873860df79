import Foundation
@testable import MockServer
@testable import MockServerWire
import Testing

/// Seeded random mutations of valid requests: the parser must always end in a parsed head, a known
/// rejection, or a request for more bytes, and never trap.
@Suite struct HTTPParserFuzzTests {
    private static let seeds = [
        "GET /users?since=0&per_page=2 HTTP/1.1\r\nHost: api.example\r\nAccept: */*\r\n\r\n",
        "POST /login HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 27\r\n\r\n",
        "PUT /x HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n",
    ]
    private static let limits = ParserLimits(maxRequestLineLength: 120, maxHeaderBytes: 300, maxHeaderCount: 6, maxBodyBytes: 1000)
    private static let interesting: [UInt8] = Array("\r\n :;,\t0fF-/\u{7F}".utf8) + [0, 0x80, 0xFF]

    @Test(arguments: 0..<4)
    func mutatedHeads_alwaysEndInAHeadARejectionOrMore(batch: Int) {
        var generator = SeededGenerator(seed: UInt64(0xF0F0 + batch))
        var outcomes: [String: Int] = [:]
        for _ in 0..<2500 {
            var bytes = Array(Self.seeds[Int.random(in: 0..<Self.seeds.count, using: &generator)].utf8)
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                mutate(&bytes, using: &generator)
            }
            outcomes[parse(bytes), default: 0] += 1
        }
        // Every outcome is one the server knows how to answer, and the mutations reach several of them.
        #expect(Set(outcomes.keys).isSubset(of: ["head", "more", "400", "413", "431", "505"]), "\(outcomes)")
        #expect(outcomes.count >= 3, "\(outcomes)")
    }

    @Test(arguments: 0..<2)
    func mutatedChunkedBodies_alwaysEndCompleteRejectedOrWanting(batch: Int) {
        var generator = SeededGenerator(seed: UInt64(0xC4C4 + batch))
        let valid = Array("5\r\nhello\r\na;x=1\r\n0123456789\r\n0\r\nT: v\r\n\r\n".utf8)
        for _ in 0..<2500 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                mutate(&bytes, using: &generator)
            }
            var decoder = ChunkedBodyDecoder()
            var body = Data()
            let (consumed, outcome) = bytes.withUnsafeBytes { decoder.decode($0, into: &body, limits: Self.limits) }
            #expect(consumed <= bytes.count)
            #expect(body.count <= Self.limits.maxBodyBytes)
            if case .rejected(let rejection) = outcome {
                #expect([400, 413, 431].contains(rejection.status))
            }
        }
    }

    private func parse(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { raw in
            var scanner = RequestHeadScanner()
            switch scanner.scan(raw, limits: Self.limits) {
            case .incomplete:
                return "more"
            case .rejected(let rejection):
                return String(rejection.status)
            case .complete(let start, let end):
                do throws(RequestRejection) {
                    _ = try RequestHeadParser.parse(UnsafeRawBufferPointer(rebasing: raw[start..<end]), limits: Self.limits)
                    return "head"
                } catch {
                    return String(error.status)
                }
            }
        }
    }

    /// Flips, replaces, inserts, deletes or duplicates bytes, or truncates.
    private func mutate(_ bytes: inout [UInt8], using generator: inout SeededGenerator) {
        guard !bytes.isEmpty else { return }
        let index = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: bytes[index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
        case 1: bytes[index] = Self.interesting.randomElement(using: &generator)!
        case 2: bytes.insert(Self.interesting.randomElement(using: &generator)!, at: index)
        case 3: bytes.remove(at: index)
        case 4: bytes.insert(contentsOf: bytes[index..<min(bytes.count, index + 40)], at: index)
        default: bytes.removeLast(Int.random(in: 0..<min(8, bytes.count), using: &generator))
        }
    }
}
