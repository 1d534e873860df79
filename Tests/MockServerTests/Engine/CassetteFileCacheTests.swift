import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import Testing
import ServiceReplayTestSupport

/// A cassette file is read once and shared while it is unchanged; any change to it is read again.
@Suite(.ownEnvironment) struct CassetteFileCacheTests {
    private func sample(_ name: String, status: Int = 200) -> Cassette {
        Cassette(
            name: name, origin: .handWritten,
            interactions: [
                Interaction(
                    request: RecordedRequest(method: "GET", target: "/\(name)"),
                    response: RecordedResponse(status: status))
            ])
    }

    @Test func load_unchangedFile_sharesTheFirstRead() throws {
        // GIVEN a cassette file, loaded once
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("a.json")
        try sample("first").save(to: url)
        let cache = CassetteFileCache()
        let first = try cache.load(url)
        // WHEN it is loaded again, also by another spelling of the same path
        let again = try cache.load(URL(fileURLWithPath: folder.path + "/./a.json"))
        // THEN the same read is returned, equal to what Cassette.load reads
        #expect(again === first)
        #expect(first.cassette == (try Cassette.load(from: url)))
    }

    @Test func load_afterAtomicSave_readsTheNewFile() throws {
        // GIVEN a loaded cassette file
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("a.json")
        try sample("first").save(to: url)
        let cache = CassetteFileCache()
        let first = try cache.load(url)
        // WHEN it is replaced by a save of the same size (a new file, so a new file number)
        try sample("other").save(to: url, overwrite: true)
        // THEN the new content is read
        let second = try cache.load(url)
        #expect(second !== first)
        #expect(second.cassette.name == "other")
    }

    @Test func load_afterInPlaceWrite_readsTheNewFile() throws {
        // GIVEN a loaded cassette file
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("a.json")
        try sample("first").save(to: url)
        let cache = CassetteFileCache()
        _ = try cache.load(url)
        // WHEN it is rewritten in place with other content
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: sample("rewritten", status: 503).encoded())
        try handle.close()
        // THEN the new content is read
        let reread = try cache.load(url)
        #expect(reread.cassette.name == "rewritten")
        #expect(reread.cassette.interactions.first?.response?.status == 503)
    }

    @Test func load_brokenFile_throwsEachTime_andCachesNothing() throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("broken.json")
        try Data("{".utf8).write(to: url)
        let cache = CassetteFileCache()
        let first = #expect(throws: MockServerError.self) { try cache.load(url) }
        let second = #expect(throws: MockServerError.self) { try cache.load(url) }
        #expect(
            first?.description
                == "\(url.path): invalid JSON at line 1, column 2: expected a string key in an object, found end of input; the file ends before its JSON does, so it was cut short"
        )
        #expect(second?.description == first?.description)
        // Once fixed, it loads
        try sample("fixed").save(to: url, overwrite: true)
        #expect(try cache.load(url).cassette.name == "fixed")
    }

    @Test func withMockServer_replaysTheCachedCassette_inEachServer() async throws {
        // GIVEN a recordings folder with one cassette
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try sample("hello", status: 201).save(to: folder.appendingPathComponent("hello.json"))
        // WHEN two servers in turn replay it
        for _ in 0..<2 {
            let status = try await withMockServer(replaying: "hello", in: folder, configuration: .init(faults: .none)) { server in
                let url = try #require(server.baseURL).appendingPathComponent("hello")
                let session = URLSession(configuration: .ephemeral)
                defer { session.finishTasksAndInvalidate() }
                let (_, response) = try await session.data(from: url)
                return (response as? HTTPURLResponse)?.statusCode
            }
            // THEN each answers from it
            #expect(status == 201)
        }
    }

    @Test func withMockServer_onAFolder_appliesACaptureLogThatAppearsAfterACachedRead() async throws {
        // GIVEN a recordings folder `api` holding one cassette, replayed once (so its file is cached)
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("api"), withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("api/things.json")
        let base = Cassette(name: "things", upstream: "http://127.0.0.1:1", interactions: [.stub("GET", "/a", status: 201)])
        try base.save(to: file)
        #expect(try await Self.status(of: "b", replaying: "api", in: folder) == 404)
        // WHEN a killed recording leaves a capture log beside the unchanged file, holding one more interaction
        let lines =
            CaptureLog.headerLine(base: CaptureLog.digest(base.encoded()), cassette: base)
            + CaptureLog.interactionLine(.stub("GET", "/b", status: 202))
        try Data(lines).write(to: CaptureLog.url(for: file))
        // THEN the next server replays the logged interaction too, as Cassette.load reads the file
        #expect(try await Self.status(of: "b", replaying: "api", in: folder) == 202)
        #expect(try RecordingsFolder.cassettes(named: "api", in: folder) == [try Cassette.load(from: file)])
    }

    /// The status a server replaying `name` from `folder` answers `GET /path` with.
    private static func status(of path: String, replaying name: String, in folder: URL) async throws -> Int? {
        try await withMockServer(replaying: name, in: folder, configuration: .init(faults: .none)) { server in
            let url = try #require(server.baseURL).appendingPathComponent(path)
            let session = URLSession(configuration: .ephemeral)
            defer { session.finishTasksAndInvalidate() }
            let (_, response) = try await session.data(from: url)
            return (response as? HTTPURLResponse)?.statusCode
        }
    }
}
