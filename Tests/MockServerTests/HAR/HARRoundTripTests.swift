import Foundation
@testable import MockServer
import Testing

@Suite struct HARRoundTripTests {
    /// Every recording, streamed ones included (their parts ride in `content._stream`).
    static let recordingFiles = (try? Cassette.files(in: CassetteRecordingsTests.recordings)) ?? []

    @Test func recordingsExist_streamedOnesAmongThem() throws {
        #expect(Self.recordingFiles.count >= 7)
        let streamed = try Self.recordingFiles.filter { file in
            try Cassette.load(from: file).interactions.contains { if case .stream? = $0.response?.body.form { true } else { false } }
        }
        #expect(!streamed.isEmpty)
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
            let cassette = Cassette(
                name: "kinds", upstream: "http://127.0.0.1:9",
                interactions: [
                    Interaction(
                        request: RecordedRequest(method: "POST", target: "/x", headers: headers, body: body),
                        response: RecordedResponse(status: 200, headers: headers, body: body))
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
        let cassette = Cassette(
            name: "odd", upstream: "https://api.example.com/base/", origin: .handWritten,
            interactions: [
                Interaction(
                    request: RecordedRequest(method: "GET", target: "/a?x=1&x=2"), failure: TransportFailure(kind: .timeout, message: "timed out after 30 s"),
                    recordedAt: Date(timeIntervalSince1970: 1_800_000_000), durationMs: 30_000),
                Interaction(
                    request: RecordedRequest(method: "HEAD", target: "/"), response: RecordedResponse(status: 299, headers: headers),
                    recordedAt: Date(timeIntervalSince1970: 1_800_000_001)),
                Interaction(
                    request: RecordedRequest(method: "DELETE", target: "/b"), failure: TransportFailure(kind: .refused),
                    recordedAt: Date(timeIntervalSince1970: 1_800_000_002), durationMs: 0),
            ])
        // When exported and imported
        let back = try Cassette(har: try HARFixtures.throughBytes(try cassette.har()))
        // Then it is the same cassette
        #expect(back == cassette)
    }

    /// A response body of every kind under its own content type: JSON, text, base64, an event stream (with
    /// fields, exact text and binary parts, unfinished), and a raw chunked stream of HTML (broken).
    static let everyBodyKind: [(contentType: String, body: RecordedBody)] = [
        ("application/json", .json(["a": 1, "b": [true, .null]])),
        ("text/plain; charset=utf-8", .text("plain words\n")),
        ("image/png", .binary(Data([0x89, 0x50, 0x00, 0xFF]))),
        (
            "text/event-stream",
            .stream(
                RecordedStream(
                    [
                        RecordedStream.Part(offsetMs: 0, .event(ServerSentEventFields(event: "delta", id: "1", retry: 500, data: "one\ntwo", comment: "c"))),
                        RecordedStream.Part(offsetMs: 40, .text("data:  odd spacing\n\n")),
                        RecordedStream.Part(offsetMs: 40, .binary(Data([0x64, 0x61, 0xFF, 0x0A, 0x0A]))),
                    ], ending: .unfinished))
        ),
        (
            "text/html; charset=utf-8",
            .stream(
                RecordedStream(
                    [
                        RecordedStream.Part(offsetMs: 3, .text("<html><body>")),
                        RecordedStream.Part(offsetMs: 250, .text("<p>late</p></body></html>")),
                    ], ending: .broken))
        ),
        ("application/x-ndjson", .stream(RecordedStream([RecordedStream.Part(offsetMs: 0, .text("{\"n\":1}\n"))]))),
    ]

    @Test func everyBodyKind_streamsIncluded_throughHAR_comesBackIdentical() throws {
        // Given a cassette with one interaction per body kind, each under its own content type
        let cassette = Cassette(
            name: "kinds", upstream: "http://127.0.0.1:9",
            interactions: Self.everyBodyKind.map { kind in
                Interaction(
                    request: RecordedRequest(method: "GET", target: "/x"),
                    response: RecordedResponse(status: 200, headers: ["Content-Type": kind.contentType], body: kind.body),
                    recordedAt: Date(timeIntervalSince1970: 1_800_000_000), durationMs: 300)
            })
        // When exported and imported
        let har = try HARFixtures.throughBytes(try cassette.har())
        let back = try Cassette(har: har)
        // Then every body comes back the same kind with the same parts, offsets and ending, byte for byte
        #expect(back.interactions == cassette.interactions)
        #expect(back.encoded() == cassette.encoded())
        // AND each entry's mimeType is the answer's own content type, streams included
        #expect(har.log.entries.map(\.response.content.mimeType) == Self.everyBodyKind.map(\.contentType))
    }

    @Test func streamRecord_whosePartsDisagreeWithTheText_isRefused_namingTheEntry() throws {
        // Given an exported stream whose content.text was edited afterwards
        let cassette = Cassette(
            name: "edited", upstream: "http://127.0.0.1:9",
            interactions: [
                Interaction(
                    request: RecordedRequest(method: "GET", target: "/x"),
                    response: RecordedResponse(
                        status: 200, headers: ["Content-Type": "text/event-stream"],
                        body: .stream(RecordedStream([RecordedStream.Part(offsetMs: 0, .text("data: a\n\n"))]))))
            ])
        var har = try cassette.har()
        har.log.entries[0].response.content.text = "data: b\n\n"
        // When it is imported, THEN it is refused with one sentence naming the entry and the field
        let edited = try HARFixtures.throughBytes(har)
        do {
            _ = try Cassette(har: edited)
            Issue.record("an edited stream record was imported")
        } catch {
            #expect(error.code == .invalidField)
            #expect(error.description.contains("response.content._stream parts do not add up to the bytes of content.text"), "\(error.description)")
        }
    }
}
