import Foundation
@testable import MockServer
import Testing

@Suite struct HARExportTests {
    private func loginCassette() throws -> Cassette {
        try Cassette.load(from: CassetteRecordingsTests.recordings.appendingPathComponent("login/login.json"))
    }

    @Test func entries_carryURLMethodHeadersBodiesStatusAndTimes() throws {
        // Given the log-in cassette
        let cassette = try loginCassette()
        // When exported
        let log = try cassette.har().log
        // Then each interaction is one entry with the upstream's URL and the recorded parts
        #expect(log.version == "1.2")
        #expect(log.creator == .serviceReplay)
        #expect(log.entries.count == cassette.interactions.count)
        let entry = try #require(log.entries.first)
        #expect(entry.request.method == "POST")
        #expect(entry.request.url == "https://api.nice.example/v1/login")
        #expect(entry.request.headers.map(\.name) == ["Content-Type", "Accept", "User-Agent"])
        #expect(entry.request.postData?.text == "username=CommandShift&password=<redacted>")
        #expect(entry.request.postData?.mimeType == "application/x-www-form-urlencoded")
        #expect(entry.response.status == 200)
        #expect(entry.response.statusText == "OK")
        #expect(entry.response.content.mimeType == "application/json; charset=utf-8")
        #expect(entry.response.content.text == #"{"access_token":"<redacted>","signupdate":"2013-11-17 09:30:00","user_id":"42"}"#)
        #expect(entry.response.content.encoding == nil)
        #expect(entry.startedDateTime == "2026-11-21T09:00:00Z")
        #expect(entry.time == 143)
        #expect(log.comment == cassette.note)
        #expect(log.cassette?.name == "login")
        #expect(log.cassette?.matching?.ignoreBodyFields == ["password"])
        #expect(log.cassette?.errorTemplates?["invalid_credentials"]?.status == 401)
    }

    @Test func binaryBodies_areBase64_andFailures_areStatusZeroWithAComment() throws {
        // Given a binary upload and a reset connection
        let cassette = Cassette(
            name: "x", upstream: "http://127.0.0.1:8080",
            interactions: [
                Interaction(
                    request: RecordedRequest(
                        method: "PUT", target: "/blob", headers: ["Content-Type": "image/png"], body: .binary(Data([0x89, 0x50, 0x4E, 0x47]))),
                    failure: TransportFailure(kind: .reset, message: "connection reset by peer"))
            ])
        // When exported
        let entry = try #require(try cassette.har().log.entries.first)
        // Then the body is base64 with the extension field, and the failure is a browser-style failed entry
        #expect(entry.request.postData == HARPostData(mimeType: "image/png", text: "iVBORw==", encoding: "base64"))
        #expect(entry.request.bodySize == 4)
        #expect(entry.response.status == 0)
        #expect(entry.response.comment == "failure: reset")
        #expect(entry.response.error == "connection reset by peer")
        #expect(entry.time == -1)
    }

    @Test func cassetteWithoutUpstream_cannotBeExported() {
        #expect(throws: MockServerError(code: .noUpstream, reason: "the cassette local names no upstream, so its requests have no URL for HAR")) {
            try Cassette(name: "local").har()
        }
    }

    @Test func savedArchive_isNeverOverwrittenUnlessAsked() throws {
        // Given an existing file
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("har-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("out.har")
        try Data("keep me".utf8).write(to: file)
        let document = try loginCassette().har()
        // When saving without and then with overwrite
        #expect(throws: MockServerError(code: .fileExists, file: file.relativePath, reason: "the file already exists")) {
            try document.save(to: file)
        }
        #expect(try Data(contentsOf: file) == Data("keep me".utf8))
        try document.save(to: file, overwrite: true)
        // Then only the second call replaced it, with the encoded document
        #expect(try HARDocument.load(from: file) == document)
    }
}
