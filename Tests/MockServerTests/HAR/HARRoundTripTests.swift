import Foundation
@testable import MockServer
import Testing

@Suite struct HARRoundTripTests {
    /// Every recording except streamed ones: HAR has no place for the timing of a stream's parts.
    static let recordingFiles = ((try? Cassette.files(in: CassetteRecordingsTests.recordings)) ?? []).filter { file in
        guard let cassette = try? Cassette.load(from: file) else { return true }
        return !cassette.interactions.contains { if case .stream? = $0.response?.body.form { true } else { false } }
    }

    @Test func recordingsExist() {
        #expect(Self.recordingFiles.count >= 6)
    }

    @Test(arguments: recordingFiles)
    func everyRecording_throughHAR_comesBackEqual(file: URL) throws {
        // Given a cassette from Recordings/
        let cassette = try Cassette.load(from: file)
        // When it is exported, written, read and imported again
        let imported = try Cassette.importing(try HARFixtures.throughBytes(try cassette.har()))
        // Then the interactions, and everything else the cassette holds, are unchanged and nothing was redacted
        #expect(imported.cassette.interactions == cassette.interactions)
        #expect(imported.cassette == cassette)
        #expect(imported.cassette.encoded() == cassette.encoded())
        #expect(imported.redacted.isEmpty)
        #expect(imported.skippedEntries == 0)
    }

    @Test func harFile_exportedThenImported_givesTheCassetteBack_underTheNameAsked() throws {
        // Given a recording exported to a HAR file
        let cassette = try Cassette.load(from: try #require(Self.recordingFiles.first))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("har-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("export.har")
        try cassette.exportHAR(to: file)
        // When the file is imported, as it is and under another name
        let same = try Cassette(harFile: file)
        let renamed = try Cassette(harFile: file, name: "renamed")
        // Then the first is the cassette itself, and the second differs only by its name
        #expect(same.encoded() == cassette.encoded())
        var expected = cassette
        expected.name = "renamed"
        #expect(renamed == expected)
    }

    @Test func browserArchive_toCassette_toHAR_toCassette_isStable() throws {
        // Given the browser archive imported once (for its one host)
        let options = HARImportOptions(name: "shop", host: "shop.example.com")
        let first = try Cassette.importing(try HARFixtures.browserDocument(), options: options).cassette
        // When that cassette goes through HAR and back
        let second = try Cassette.importing(try HARFixtures.throughBytes(try first.har()), options: options).cassette
        // Then nothing changes, and a second export is identical to the first
        #expect(second == first)
        #expect(try second.har().encoded() == (try first.har().encoded()))
    }

    @Test(arguments: [
        RecordedBody.json(["a": 1, "b": [true, .null]]),
        .json("just a string"),
        .text("{\"not\": \"json\" but text"),
        .text("plain words"),
        .binary(Data([0x00, 0xFF, 0x10, 0x80])),
        .binary(Data("valid UTF-8 kept as bytes".utf8)),
    ])
    func bodiesKeepTheirKind_whateverTheContentTypeHeaderSays(body: RecordedBody) throws {
        // Given bodies under a JSON header, a text header and no header at all
        for headers: HTTPHeaders in [["Content-Type": "application/json"], ["Content-Type": "text/plain"], [:]] {
            let cassette = Cassette(name: "kinds", upstream: "http://127.0.0.1:9", interactions: [
                Interaction(request: RecordedRequest(method: "POST", target: "/x", headers: headers, body: body),
                            response: RecordedResponse(status: 200, headers: headers, body: body)),
            ])
            // When exported and imported
            let back = try Cassette(har: try HARFixtures.throughBytes(try cassette.har()))
            // Then request and response bodies are the same kind with the same content
            #expect(back.interactions == cassette.interactions, "\(headers.lines)")
        }
    }

    @Test func failuresUnknownDurationsAndRepeatedHeaders_surviveTheRoundTrip() throws {
        // Given a cassette with a transport failure, a missing duration, repeated and oddly ordered headers
        let headers = HTTPHeaders(pairs: [("X-B", "2"), ("Set-Cookie", "a=<redacted>"), ("x-a", "1"), ("Set-Cookie", "b=<redacted>; Path=/")])
        let cassette = Cassette(name: "odd", upstream: "https://api.example.com/base/", origin: .handWritten, interactions: [
            Interaction(request: RecordedRequest(method: "GET", target: "/a?x=1&x=2"), failure: TransportFailure(kind: .timeout, message: "timed out after 30 s"),
                        recordedAt: Date(timeIntervalSince1970: 1_800_000_000), durationMs: 30_000),
            Interaction(request: RecordedRequest(method: "HEAD", target: "/"), response: RecordedResponse(status: 299, headers: headers),
                        recordedAt: Date(timeIntervalSince1970: 1_800_000_001)),
            Interaction(request: RecordedRequest(method: "DELETE", target: "/b"), failure: TransportFailure(kind: .refused),
                        recordedAt: Date(timeIntervalSince1970: 1_800_000_002), durationMs: 0),
        ])
        // When exported and imported
        let back = try Cassette(har: try HARFixtures.throughBytes(try cassette.har()))
        // Then it is the same cassette
        #expect(back == cassette)
    }
}
