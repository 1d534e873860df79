import Foundation
@testable import MockServer
import Testing

/// Loading a cassette file straight into an engine, one interaction at a time, behaves exactly like
/// decoding it whole and building the engine from the result.
@Suite struct CassetteStreamingTests {
    @Test(arguments: CassetteLoadErrorTests.cases)
    func streamingDecode_throwsWhatDecodingThrows(document: String, message: String) {
        do {
            _ = try Cassette.decode(Data(document.utf8), source: "F.json") { _ in }
            Issue.record("expected an error for \(document)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func streamingDecode_handsOverEveryInteraction_inOrder() throws {
        // GIVEN a cassette file's bytes
        let data = Data(CassetteFixtures.githubUsers.utf8)
        let whole = try Cassette(jsonData: data, source: "users.json")
        // WHEN decoded as a stream
        var streamed: [Interaction] = []
        var fields = try Cassette.decode(data, source: "users.json") { streamed.append($0) }
        // THEN the interactions arrive in order and the cassette's own fields are the same
        #expect(streamed == whole.interactions)
        #expect(fields.interactions.isEmpty)
        fields.interactions = streamed
        #expect(fields == whole)
    }

    @Test func loadedCassette_servesTheFileAsLoadingItWould() throws {
        // GIVEN a cassette file
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("users.json")
        try Data(CassetteFixtures.githubUsers.utf8).write(to: file)
        let loaded = try Cassette.load(from: file)
        // WHEN one engine loads it whole and another is built from the file read as a LoadedCassette
        let reference = ReplayEngine(cassettes: [loaded])
        let engine = ReplayEngine(loaded: [try LoadedCassette(contentsOf: file)])
        // THEN both hold the same cassette and answer every recorded request alike
        #expect(engine.interactionCount == loaded.interactions.count)
        #expect(engine.preparedCassettes.map(\.cassette) == [loaded])
        for interaction in loaded.interactions {
            let request = interaction.request.httpRequest
            #expect(engine.answer(request).response == reference.answer(request).response)
            #expect(engine.answer(request).interaction == reference.answer(request).interaction)
        }
        #expect(engine.errorTemplate(named: "rate_limit") == reference.errorTemplate(named: "rate_limit"))
    }

    @Test func addedCassette_comesAfterTheOthers_andInCodeInteractionsStillOverride() throws {
        // GIVEN an engine with a cassette answering /x once, then a file answering /x too, added in a new engine
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("later.json")
        try Cassette(name: "later", interactions: [.stub("GET", "/x", status: 202)]).save(to: file)
        let engine = ReplayEngine(cassettes: [Cassette(name: "first", interactions: [.stub("GET", "/x", status: 201)])])
            .adding(try LoadedCassette(contentsOf: file))
        // WHEN /x is sent three times THEN the first cassette answers, the added one continues, then it repeats
        let statuses = (0..<3).map { _ in engine.answer(HTTPRequest(method: "GET", target: "/x")).response?.status }
        #expect(statuses == [201, 202, 201])
        #expect(engine.preparedCassettes.map(\.name) == ["first", "later"])
        // AND an interaction added in code answers before both
        engine.add(.stub("GET", "/x", status: 299))
        #expect(engine.answer(HTTPRequest(method: "GET", target: "/x")).response?.status == 299)
    }

    @Test func adding_keepsTheInCodeCassetteFirst() throws {
        // GIVEN an engine with an interaction added in code, then a cassette added
        let base = ReplayEngine(cassettes: [Cassette(name: "first", interactions: [.stub("GET", "/y", status: 201)])])
        base.add(.stub("GET", "/x", status: 299))
        let engine = base.adding(LoadedCassette(Cassette(name: "later", interactions: [.stub("GET", "/x", status: 202)])))
        // WHEN /x is sent and another stub is added THEN the in-code cassette still answers first, and is the one added to
        #expect(engine.answer(HTTPRequest(method: "GET", target: "/x")).response?.status == 299)
        engine.add(.stub("GET", "/z", status: 298))
        #expect(engine.preparedCassettes.map(\.name) == ["first", ReplayEngine.inCodeCassetteName, "later"])
        #expect(engine.answer(HTTPRequest(method: "GET", target: "/z")).response?.status == 298)
    }

    @Test func loadingABadFile_throwsItsLoadError() throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = URL(fileURLWithPath: "broken.json", relativeTo: folder)
        let broken = CassetteFixtures.document(
            interactions: "[\(CassetteFixtures.interaction()), \(CassetteFixtures.interaction(response: #""response": {"status": "x"}"#))]")
        try Data(broken.utf8).write(to: file)
        let badFile = #expect(throws: MockServerError.self) { try LoadedCassette(contentsOf: file) }
        #expect(badFile?.description == "broken.json: interaction 1: response.status: expected an integer, found a string")
        let missing = #expect(throws: MockServerError.self) {
            try LoadedCassette(contentsOf: URL(fileURLWithPath: "missing.json", relativeTo: folder))
        }
        #expect(missing?.description == "missing.json: cannot read the file (No such file or directory)")
    }
}
