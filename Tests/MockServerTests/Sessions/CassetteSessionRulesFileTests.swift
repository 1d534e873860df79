import Foundation
@testable import MockServer
import ServiceReplayShared
import Testing

/// The project's rules file in the recordings folder (`.servicereplay.json`) applies to every recording a test
/// makes, so a re-recording keeps it.
@Suite struct CassetteSessionRulesFileTests {
    static let revision = "Zk9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZkdISUpLTG1ubw"

    /// An upstream answering `/pins` with a revision (no secret) and a PIN (a secret no built-in rule knows).
    @Sendable static func respond(_ request: HTTPRequest) -> HTTPReply {
        .response(
            status: 200, headers: ["Content-Type": "application/json"],
            body: Data(#"{"revision":"\#(revision)","pin":"1234"}"#.utf8))
    }

    @Test(arguments: [RecordMode.once, .newEpisodes, .all])
    func recording_redactsTheFieldsTheRulesFileNames_andKeepsWhatItAllows(mode: RecordMode) async throws {
        try await CassetteSessionTests.withFolder { folder in
            // Given a recordings folder whose rules file names the PIN a secret and allows the revision
            try Data(#"{"redact": ["pin"], "allow": ["revision"]}"#.utf8).write(to: folder.appendingPathComponent(".servicereplay.json"))
            // When a test records in this mode
            let result = try await withUpstream(respond: Self.respond) { upstream, _ in
                try await CassetteSessionTests.run(mode, in: folder, upstream: upstream, path: "pins")
            }
            // Then the client got the PIN, and the cassette holds it redacted beside the revision
            #expect(result.kinds == [.recorded])
            let cassette = try Cassette.load(from: folder.appendingPathComponent("api/things.json"))
            #expect(cassette.interactions.first?.response?.body == .json(["revision": .string(Self.revision), "pin": "<redacted>"]))
        }
    }

    @Test func malformedRulesFile_failsTheRecording_withOneSentence_andRecordsNothing() async throws {
        try await CassetteSessionTests.withFolder { folder in
            let rules = folder.appendingPathComponent(".servicereplay.json")
            try Data(#"{"allow": "revision"}"#.utf8).write(to: rules)
            let error = await #expect(throws: MockServerError.self) {
                try await withUpstream(respond: Self.respond) { upstream, _ in
                    try await CassetteSessionTests.run(.once, in: folder, upstream: upstream, path: "pins")
                }
            }
            #expect(error?.description == "\(rules.path): allow: expected an array, found a string")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("api/things.json").path))
        }
    }
}
