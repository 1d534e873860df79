import Foundation
@testable import MockServer
@testable import MockServerTesting
import ServiceReplayShared
import Testing

/// A run that records a missing cassette and fails without recording anything leaves no empty folder behind:
/// the folders it created for the cassette go, and only those, and only while empty.
@Suite struct FailedRecordingFolderTests {
    struct Thrown: Error {}

    /// Everything below `folder`, as paths relative to it, sorted.
    static func tree(_ folder: URL) -> [String] {
        let base = folder.standardizedFileURL.path + "/"
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? []).map { $0.standardizedFileURL.path.replacingOccurrences(of: base, with: "") }.sorted()
    }

    /// Runs `withMockServer(replaying: name, in: folder)` under `MOCKSERVER_RECORD=mode` with `body`, and
    /// returns what it threw.
    static func run(
        _ name: String, in folder: URL, mode: String = "once", _ body: @escaping (CassetteServer) async throws -> Void
    ) async -> (any Error)? {
        await TestEnvironment.$override.withValue(["MOCKSERVER_RECORD": mode]) { () async -> (any Error)? in
            do {
                try await withMockServer(replaying: name, in: folder, upstream: "http://127.0.0.1:1", configuration: .init(faults: .none)) {
                    try await body($0)
                }
                return nil
            } catch {
                return error
            }
        }
    }

    @Test func onceMode_withNoRequest_failsAndLeavesNoFolderItCreated() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // WHEN a test under `once` records the missing Outer/Inner/test and sends nothing
        let error = await Self.run("Outer/Inner/test", in: folder) { _ in }
        // THEN it fails saying nothing was recorded, and the recordings folder is as it was: empty
        #expect((error as? MockServerError)?.description.hasPrefix("no request reached the server while MOCKSERVER_RECORD=once") == true)
        #expect(Self.tree(folder) == [])
    }

    @Test(arguments: ["once", "new-episodes", "all"])
    func aFailingTest_thatRecordedNothing_leavesNoFolderItCreated(mode: String) async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // WHEN a test recording the missing Suite/test fails before any request
        let error = await Self.run("Suite/test", in: folder, mode: mode) { server in
            #expect(server.baseURL != nil)
            throw Thrown()
        }
        // THEN it fails with its own error, and Suite/ is gone
        #expect(error is Thrown)
        #expect(Self.tree(folder) == [])
    }

    @Test func aFolderThatExistedBefore_staysEvenEmpty() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // GIVEN an empty Suite/ already there
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Suite"), withIntermediateDirectories: false)
        // WHEN a test recording Suite/Sub/test into it fails
        let error = await Self.run("Suite/Sub/test", in: folder) { _ in throw Thrown() }
        // THEN only Sub/, which the run created, is gone
        #expect(error is Thrown)
        #expect(Self.tree(folder) == ["Suite"])
    }

    @Test func aFolderTheRunCreated_thatHoldsSomething_stays() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // WHEN a test recording Outer/Inner/test writes a file of its own into Outer/, then fails
        let error = await Self.run("Outer/Inner/test", in: folder) { _ in
            try Data("kept".utf8).write(to: folder.appendingPathComponent("Outer/note.txt"))
            throw Thrown()
        }
        // THEN the empty Inner/ is gone, and Outer/ stays with the file
        #expect(error is Thrown)
        #expect(Self.tree(folder) == ["Outer", "Outer/note.txt"])
    }

    @Test func trait_onceMode_onAFailingTest_leavesNoFolderItCreated() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // WHEN a test under the trait records the missing Suite/test under `once`, and fails before any request
        let trait = MockServerTraitTests.trait(
            "Suite/test", in: folder, upstream: URL(string: "http://127.0.0.1:1")!, environment: ["MOCKSERVER_RECORD": "once"])
        await withKnownIssue {
            do { try await MockServerTraitTests.scope(trait) { throw Thrown() } } catch { Issue.record(error) }
        } matching: { issue in
            // The test's own failure, and the trait's sentence that `once` recorded nothing
            issue.error is Thrown || (issue.error as? MockServerError)?.code == .invalidConfiguration
        }
        // THEN Suite/ is gone
        #expect(Self.tree(folder) == [])
    }

    @Test func aPassingRecording_keepsItsFolderAndCassette() async throws {
        try await withMockServer(cassettes: [RecordFromClosuresTests.upstreamCassette], configuration: .init(faults: .none)) { upstream in
            let folder = try CassetteFixtures.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try await TestEnvironment.$override.withValue(["MOCKSERVER_RECORD": "once"]) {
                try await withMockServer(
                    replaying: "Suite/test", in: folder, upstream: upstream.baseURL!.absoluteString, configuration: .init(faults: .none)
                ) { server in
                    _ = try await RecordFromClosuresTests.get("/item/0", from: server)
                }
            }
            #expect(Self.tree(folder) == ["Suite", "Suite/test.json"])
        }
    }
}
