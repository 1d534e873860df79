import Foundation
@testable import MockServer
import Testing

/// Saving is atomic and never overwrites unless asked; folders load recursively in path order.
@Suite struct CassetteFileTests {
    private func sample(_ name: String, status: Int = 200) -> Cassette {
        Cassette(
            name: name, origin: .handWritten,
            interactions: [
                Interaction(
                    request: RecordedRequest(method: "GET", target: "/\(name)"),
                    response: RecordedResponse(status: status))
            ])
    }

    private func entries(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func save_thenLoad_isByteIdenticalAndLeavesNoTemporaryFile() throws {
        // GIVEN the canonical fixture, loaded
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = folder.appendingPathComponent("users.json")
        try Data(CassetteFixtures.githubUsers.utf8).write(to: original)
        let cassette = try Cassette.load(from: original)
        // WHEN saved elsewhere
        let copy = folder.appendingPathComponent("copy.json")
        try cassette.save(to: copy)
        // THEN the bytes are those of the original and only the two files exist
        #expect(try Data(contentsOf: copy) == Data(contentsOf: original))
        #expect(try entries(folder) == ["copy.json", "users.json"])
        #expect(try Cassette.load(from: copy) == cassette)
    }

    @Test func save_overExistingFile_withoutPermission_throwsAndKeepsTheFile() throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = URL(fileURLWithPath: "a.json", relativeTo: folder)
        try sample("first").save(to: url)
        let before = try Data(contentsOf: url)
        do {
            try sample("second").save(to: url)
            Issue.record("expected fileExists")
        } catch {
            #expect(error.code == .fileExists)
            #expect(error.description == "a.json: the file already exists; pass overwrite: true to replace it")
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(try entries(folder) == ["a.json"])
    }

    @Test func save_withOverwrite_replacesTheFile() throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("a.json")
        try sample("first").save(to: url)
        try sample("second", status: 500).save(to: url, overwrite: true)
        #expect(try Cassette.load(from: url) == sample("second", status: 500))
        #expect(try entries(folder) == ["a.json"])
    }

    @Test func save_intoMissingFolder_throwsAndWritesNothing() throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = URL(fileURLWithPath: "missing/a.json", relativeTo: folder)
        do {
            try sample("x").save(to: url)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .fileSystem)
            #expect(error.description == "missing/a.json: cannot create a temporary file in missing (No such file or directory)")
        }
        #expect(try entries(folder).isEmpty)
    }

    @Test func save_concurrentlyWithoutOverwrite_exactlyOneWriterWins() async throws {
        // GIVEN eight writers racing for the same new file
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("race.json")
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for writer in 0..<8 {
                group.addTask { (try? sample("w\(writer)").save(to: url)) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        // THEN one succeeds, the rest are refused, and no temporary file remains
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(try entries(folder) == ["race.json"])
        #expect(try Cassette.load(from: url).interactions.count == 1)
    }

    @Test func loadAll_readsJSONFilesRecursivelyInPathOrder_skippingHiddenOnes() throws {
        // GIVEN cassettes in nested folders, plus files that are not cassettes
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for path in ["nice/login.json", "github/users.json", "github/b/deep.json", "a.json"] {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try sample(path.replacingOccurrences(of: "/", with: "-")).save(to: url)
        }
        try Data("not json".utf8).write(to: folder.appendingPathComponent("README.md"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: folder.appendingPathComponent(".git/x.json"))
        try Data("{}".utf8).write(to: folder.appendingPathComponent("github/.users.json.1.2.tmp.json"))
        // WHEN the folder is loaded
        let cassettes = try Cassette.loadAll(from: folder)
        // THEN only the cassettes come back, ordered by path
        #expect(cassettes.map(\.name) == ["a.json", "github-b-deep.json", "github-users.json", "nice-login.json"])
    }

    @Test func loadAll_namesTheBrokenFile() throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("api"), withIntermediateDirectories: true)
        try Data("{".utf8).write(to: folder.appendingPathComponent("api/broken.json"))
        let relative = URL(fileURLWithPath: "api", relativeTo: folder)
        do {
            _ = try Cassette.loadAll(from: relative)
            Issue.record("expected an error")
        } catch {
            #expect(
                error.description
                    == "api/broken.json: invalid JSON at line 1, column 2: expected a string key in an object, found end of input; the file ends before its JSON does, so it was cut short"
            )
        }
    }

    @Test func loadAll_ofMissingFolder_saysSo() {
        let url = URL(fileURLWithPath: "/nonexistent-mockserver-folder")
        let error = #expect(throws: MockServerError.self) { try Cassette.loadAll(from: url) }
        #expect(error?.description == "/nonexistent-mockserver-folder: no such folder")
    }
}
