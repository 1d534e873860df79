import Foundation
@testable import MockServer
import Testing

@Suite struct CassetteLinterTests {
    @Test func everyRecording_lintsClean() throws {
        let files = try Cassette.files(in: CassetteRecordingsTests.recordings)
        #expect(files.count >= 6)
        for file in files {
            #expect(CassetteLinter().findings(inFileAt: file) == [], "\(file.lastPathComponent)")
        }
    }

    private static func interaction(_ target: String, _ body: String) -> Interaction {
        Interaction(
            request: RecordedRequest(method: "GET", target: target),
            response: RecordedResponse(status: 200, headers: ["Content-Type": "text/plain"], body: .text(body)))
    }

    /// Responses named by letter, all to `GET /poll` unless a target is given.
    @Test(
        arguments: [
            ("AA", nil, [1: 0]),
            ("ABB", nil, [2: 1]),
            ("ABBB", nil, [2: 1, 3: 1]),
            ("AAB", nil, [:]),
            ("ABA", nil, [:]),
            ("AA", AfterLastPolicy.repeat, [1: 0]),
            ("AAA", .cycle, [1: 0, 2: 0]),
            ("ABB", .cycle, [:]),
            ("AA", .fail, [:]),
        ] as [(String, AfterLastPolicy?, [Int: Int])])
    func duplicates_areOnlyThoseReplayNeverNeeds(responses: String, policy: AfterLastPolicy?, expected: [Int: Int]) {
        // Given identical requests answered in this order under this policy
        let cassette = Cassette(
            name: "poll", matching: MatchRules(afterLast: policy),
            interactions: responses.map { Self.interaction("/poll", String($0)) })
        // When looking for duplicates
        let found = CassetteLinter.duplicates(in: cassette)
        // Then exactly the redundant ones are reported, each against the first of its run
        #expect(Dictionary(uniqueKeysWithValues: found.map { ($0.index, $0.original) }) == expected)
    }

    @Test func requestsDifferingOnlyInIgnoredParts_areTheSameRequest() {
        // Given two requests that differ in an ignored query parameter, and two that truly differ
        let interactions = [
            Self.interaction("/a?_=1&page=1", "A"), Self.interaction("/a?page=1&_=2", "A"),
            Self.interaction("/b?page=1", "B"), Self.interaction("/b?page=2", "B"),
        ]
        let ignoring = Cassette(name: "c", matching: MatchRules(ignoredQueryParameters: ["_"]), interactions: interactions)
        let strict = Cassette(name: "c", interactions: interactions)
        // Then only the cassette's own rules decide
        #expect(CassetteLinter.duplicates(in: ignoring) == [CassetteLinter.Duplicate(index: 1, original: 0)])
        #expect(CassetteLinter.duplicates(in: strict) == [])
    }

    @Test func findings_nameFileInteractionAndPlace_inOrder() {
        // Given a duplicate, a live bearer token, a token in the query and a JWT in an error template
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJlLWJ5dGVz"
        var leaky = Self.interaction("/me?access_token=abc123", "A")
        leaky.request.headers = ["Authorization": "Bearer abc"]
        let cassette = Cassette(
            name: "c",
            errorTemplates: [
                "expired": RecordedResponse(
                    status: 401, headers: ["Content-Type": "application/json"],
                    body: .json(["hint": .string(jwt)]))
            ],
            interactions: [Self.interaction("/a", "A"), Self.interaction("/a", "A"), leaky])
        // When linted
        let findings = CassetteLinter().findings(in: cassette, file: "api/c.json", rulesFile: "api/.servicereplay.json")
        // Then every sentence names where to look
        #expect(
            findings.map(\.description) == [
                "api/c.json: interaction 1: duplicates interaction 0 (same request under the cassette's match rules, same response); replay never needs it",
                "api/c.json: interaction 2: request header Authorization: looks like a credential (name `Authorization`); if it is not, add \"Authorization\" to allow in api/.servicereplay.json",
                "api/c.json: interaction 2: request query access_token: looks like a credential (name `access_token`); if it is not, add \"access_token\" to allow in api/.servicereplay.json",
                "api/c.json: error template expired: response body $.hint: looks like a credential (a JSON Web Token); if it is not, add \"hint\" to allow in api/.servicereplay.json",
            ])
        #expect(findings.map(\.kind) == [.duplicate, .secret, .secret, .secret])
    }

    @Test(arguments: [
        (
            "{\"format\": \"servicereplay-cassette\", \"version\": 1, \"interactions\": [{\"request\": {\"method\": \"GET\", \"target\": \"/\"}, \"response\": {\"status\": \"200\"}}]}",
            "bad.json: interaction 0: response.status: expected an integer, found a string"
        ),
        ("{\"format\": \"other\"}", "bad.json: not a ServiceReplay cassette: format is \"other\", expected \"servicereplay-cassette\""),
    ])
    func unloadableFiles_areOneFormatFinding(contents: String, sentence: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(contents.utf8).write(to: folder.appendingPathComponent("bad.json"))
        let file = URL(fileURLWithPath: "bad.json", relativeTo: folder)
        #expect(CassetteLinter().findings(inFileAt: file) == [LintFinding(kind: .format, description: sentence)])
    }
}
