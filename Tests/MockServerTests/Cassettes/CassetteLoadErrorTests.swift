import Foundation
@testable import MockServer
import Testing

/// Every load error is one sentence naming the file, the interaction and the field, asserted word for word.
@Suite struct CassetteLoadErrorTests {
    typealias F = CassetteFixtures

    static let cases: [(String, String)] = [
        (
            "{\n  \"format\": \"servicereplay-cassette\",\n  \"version\": 1\n  \"interactions\": []\n}",
            "F.json: invalid JSON at line 4, column 3: expected ',' or '}' after an object member, found '\"'"
        ),
        ("[]", "F.json: not a ServiceReplay cassette: expected a JSON object at the top level, found an array"),
        (#"{"version": 1}"#, "F.json: not a ServiceReplay cassette: the \"format\" field must be \"servicereplay-cassette\""),
        (#"{"format": "har", "version": 1}"#, "F.json: not a ServiceReplay cassette: format is \"har\", expected \"servicereplay-cassette\""),
        (
            #"{"format": "servicereplay-cassette", "version": 4, "shiny": true}"#,
            "F.json: cassette version 4 is newer than this MockServer reads (version 3); update ServiceReplay"
        ),
        (#"{"format": "servicereplay-cassette", "version": "1"}"#, "F.json: version: expected an integer, found a string"),
        (#"{"format": "servicereplay-cassette", "version": 1}"#, "F.json: interactions: required field is missing"),
        (
            F.document(extra: #""nmae": "x", "#),
            "F.json: nmae: unknown field; expected one of errorTemplates, format, interactions, matching, name, note, origin, recordedAt, upstream, version"
        ),
        (F.document(extra: #""origin": "handwritten", "#), "F.json: origin: expected one of recorded, hand-written, found \"handwritten\""),
        (
            F.document(extra: #""recordedAt": "yesterday", "#),
            "F.json: recordedAt: expected an ISO 8601 date in UTC such as 2026-11-21T10:00:00Z, found \"yesterday\""
        ),
        (F.document(extra: #""matching": {"afterLast": "loop"}, "#), "F.json: matching.afterLast: expected one of repeat, cycle, fail, found \"loop\""),
        (F.document(extra: #""matching": {"ignoreQuery": ["a", 1]}, "#), "F.json: matching.ignoreQuery[1]: expected a string, found 1"),
        (
            F.document(extra: #""errorTemplates": {"rate_limit": {"status": "403"}}, "#),
            "F.json: errorTemplates.rate_limit.status: expected an integer, found a string"
        ),
        (F.document(interactions: "{}"), "F.json: interactions: expected an array, found an object"),
        (F.document(interactions: "[1]"), "F.json: interaction 0: expected an object, found 1"),
        (
            F.document(interactions: "[\(F.interaction()), \(F.interaction(response: #""response": {"status": "200"}"#))]"),
            "F.json: interaction 1: response.status: expected an integer, found a string"
        ),
        (
            F.document(interactions: "[\(F.interaction(response: #""response": {"status": 2.5}"#))]"),
            "F.json: interaction 0: response.status: expected an integer, found 2.5"
        ),
        (
            F.document(interactions: "[\(F.interaction(response: #""response": {"status": 42}"#))]"),
            "F.json: interaction 0: response.status: expected a status code from 100 to 999, found 42"
        ),
        (
            F.document(interactions: "[\(F.interaction(response: #""response": {}"#))]"),
            "F.json: interaction 0: response.status: required field is missing"
        ),
        (
            F.document(interactions: "[\(F.interaction(request: #"{"target": "/a"}"#))]"),
            "F.json: interaction 0: request.method: required field is missing"
        ),
        (
            F.document(interactions: "[\(F.interaction(request: #"{"method": "GET", "target": "users"}"#))]"),
            "F.json: interaction 0: request.target: expected a path starting with \"/\", found \"users\""
        ),
        (
            F.document(interactions: "[\(F.interaction(request: #"{"method": "GE T", "target": "/"}"#))]"),
            "F.json: interaction 0: request.method: expected an HTTP method token such as GET, found \"GE T\""
        ),
        (
            F.document(interactions: "[\(F.interaction(request: #"{"method": "GET", "target": "/", "hedaers": []}"#))]"),
            "F.json: interaction 0: request.hedaers: unknown field; expected one of body, headers, method, target"
        ),
        (
            F.document(interactions: "[\(F.interaction(request: #"{"method": "GET", "target": "/", "headers": [["A", "1"], ["B"]]}"#))]"),
            "F.json: interaction 0: request.headers[1]: expected a [name, value] pair of strings"
        ),
        (
            F.document(interactions: "[\(F.interaction(response: #""response": {"status": 200, "body": {"json": 1, "text": "1"}}"#))]"),
            "F.json: interaction 0: response.body: expected exactly one of \"json\", \"text\", \"base64\" or \"stream\""
        ),
        (
            F.document(interactions: "[\(F.interaction(response: #""response": {"status": 200, "body": {"xml": "<a/>"}}"#))]"),
            "F.json: interaction 0: response.body: expected exactly one of \"json\", \"text\", \"base64\" or \"stream\", found \"xml\""
        ),
        (
            F.document(interactions: "[\(F.interaction(response: #""response": {"status": 200, "body": {"base64": "%%%"}}"#))]"),
            "F.json: interaction 0: response.body.base64: invalid base64"
        ),
        (
            F.document(interactions: "[\(F.interaction(response: ""))]".replacingOccurrences(of: ", }", with: "}")),
            "F.json: interaction 0: expected exactly one of \"response\", \"failure\" or \"webSocket\""
        ),
        (
            F.document(interactions: "[\(F.interaction(response: #""response": {"status": 200}, "failure": {"kind": "reset"}"#))]"),
            "F.json: interaction 0: expected exactly one of \"response\", \"failure\" or \"webSocket\""
        ),
        (
            F.document(interactions: "[\(F.interaction(response: #""failure": {"kind": "dns"}"#))]"),
            "F.json: interaction 0: failure.kind: expected one of refused, reset, timeout, found \"dns\""
        ),
        (
            F.document(interactions: "[\(F.interaction(extra: #", "durationMs": -5"#))]"),
            "F.json: interaction 0: durationMs: expected a duration of 0 or more milliseconds, found -5"
        ),
        (
            F.document(interactions: "[\(F.interaction(extra: #", "recordedAt": 5"#))]"),
            "F.json: interaction 0: recordedAt: expected a string, found 5"
        ),
    ]

    @Test(arguments: cases)
    func loadError_namesFileInteractionAndField(document: String, message: String) {
        do {
            _ = try Cassette(jsonData: Data(document.utf8), source: "F.json")
            Issue.record("expected an error for \(document)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func loadFromDisk_namesTheRelativePath() throws {
        // GIVEN a broken cassette inside a folder, addressed relative to the current directory
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let nested = folder.appendingPathComponent("Recordings/github", isDirectory: true)
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        let broken = F.document(
            interactions: "[\(F.interaction()), \(F.interaction()), \(F.interaction()), \(F.interaction(response: #""response": {"status": "x"}"#))]")
        try Data(broken.utf8).write(to: nested.appendingPathComponent("users.json"))
        let relative = URL(fileURLWithPath: "Recordings/github/users.json", relativeTo: folder)
        // WHEN loaded THEN the message names the path as given
        #expect(throws: MockServerError.self) { try Cassette.load(from: relative) }
        do {
            _ = try Cassette.load(from: relative)
        } catch {
            #expect(error.description == "Recordings/github/users.json: interaction 3: response.status: expected an integer, found a string")
            #expect(error.code == .invalidField)
            #expect(error.interaction == 3)
            #expect(error.field == "response.status")
        }
    }

    @Test func loadMissingFile_saysSo() throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = URL(fileURLWithPath: "nope.json", relativeTo: folder)
        do {
            _ = try Cassette.load(from: missing)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "nope.json: cannot read the file (No such file or directory)")
            #expect(error.code == .fileSystem)
        }
    }
}
