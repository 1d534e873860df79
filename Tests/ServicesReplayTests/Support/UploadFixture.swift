import Foundation
@testable import MockServer

/// The photo the upload cassette recorded, taken out of the recorded multipart body, so that the upload test
/// sends exactly those bytes (multipart matching compares every part, never the boundary).
enum UploadFixture {
    /// The recorded `photo` part's bytes; empty when the cassette cannot be read (the upload then goes
    /// unmatched and the strict server fails the test with a near-miss report naming the part).
    static let jpeg: Data = (try? recordedPart(named: "photo")) ?? Data()

    /// The content of the part named `name` in the upload cassette's first request.
    static func recordedPart(named name: String) throws -> Data {
        let request = try Recordings.cassette("upload/photos").interactions.first.orThrow("the upload cassette has no interaction").request
        let contentType = try request.headers["Content-Type"].orThrow("the recorded upload has no Content-Type")
        let boundary = try contentType.components(separatedBy: "boundary=").dropFirst().first.orThrow("the recorded upload has no boundary")
        let body = request.body.data
        let delimiter = Data("--\(boundary)".utf8)
        var searchStart = body.startIndex
        while let start = body.range(of: delimiter, in: searchStart..<body.endIndex) {
            guard let headEnd = body.range(of: Data("\r\n\r\n".utf8), in: start.upperBound..<body.endIndex),
                let next = body.range(of: Data("\r\n".utf8) + delimiter, in: headEnd.upperBound..<body.endIndex)
            else { break }
            let head = String(decoding: body[start.upperBound..<headEnd.lowerBound], as: UTF8.self)
            if head.contains("name=\"\(name)\"") {
                return Data(body[headEnd.upperBound..<next.lowerBound])
            }
            searchStart = next.lowerBound + 2
        }
        throw FixtureProblem("the recorded upload has no part named \(name)")
    }
}
