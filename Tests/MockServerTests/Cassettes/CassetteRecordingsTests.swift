import Foundation
@testable import MockServer
import Testing

/// The repository's own Recordings/ must load, re-save without a diff, and answer realistic requests.
@Suite struct CassetteRecordingsTests {
    static let recordings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Recordings", isDirectory: true)

    @Test func everyRecording_loadsAndResavesByteForByte() throws {
        let files = try Cassette.files(in: Self.recordings)
        #expect(!files.isEmpty)
        for file in files {
            let cassette = try Cassette.load(from: file)
            #expect(cassette.encoded() == (try Data(contentsOf: file)), "\(file.lastPathComponent) would change on re-save")
        }
    }

    @Test func everyRecordedRequest_isAnswered() throws {
        let cassettes = try Cassette.loadAll(from: Self.recordings)
        let engine = ReplayEngine(cassettes: cassettes)
        for cassette in cassettes {
            for interaction in cassette.interactions {
                let decision = engine.answer(interaction.request.httpRequest)
                #expect(decision.interaction != nil, "\(cassette.name): \(interaction.request.method) \(interaction.request.target)")
            }
        }
    }

    @Test func redactedRecordings_matchRealSecrets_andAnotherBoundary() throws {
        let engine = ReplayEngine(cassettes: try Cassette.loadAll(from: Self.recordings))
        // A real password where the recording has a placeholder
        let login = engine.answer(
            HTTPRequest(
                method: "POST", target: "/login",
                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("username=CommandShift&password=hunter2".utf8)))
        #expect(login.response?.status == 200)
        // A real token, parameters in another order
        let friends = engine.answer(HTTPRequest(method: "GET", target: "/friends?user_id=42&token=abc123"))
        #expect(friends.response?.status == 200)
        // The recorded upload, sent with a different multipart boundary
        let upload = try #require(try Cassette.loadAll(from: Self.recordings).first { $0.name.contains("photo") || $0.name.contains("upload") })
        let recorded = try #require(upload.interactions.first).request
        let oldBoundary = try #require(recorded.headers["Content-Type"]?.components(separatedBy: "boundary=").last)
        let newBoundary = "URLSessionBoundary-0000"
        var request = recorded.httpRequest
        request.headers.set(name: "Content-Type", value: "multipart/form-data; boundary=\(newBoundary)")
        request.body = Self.replacing(Data(oldBoundary.utf8), with: Data(newBoundary.utf8), in: request.body)
        #expect(request.body != recorded.body.data)
        #expect(engine.answer(request).interaction?.cassette == upload.name)
    }

    static func replacing(_ old: Data, with new: Data, in data: Data) -> Data {
        var result = Data()
        var rest = data[...]
        while let range = rest.range(of: old) {
            result += rest[..<range.lowerBound] + new
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
