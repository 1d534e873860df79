import Foundation
@testable import MockServer
import Testing

/// On an iOS device the source tree that `#filePath` names is not there: cassettes shipped as test resources
/// (`resources: [.copy("Recordings")]`) are found in the test bundle instead.
@Suite struct RecordingsFolderBundleTests {
    /// A bundle laid out as SwiftPM ships a test target's resources: `Tests.xctest/Package_Tests.bundle/Recordings`.
    private static func testBundle() throws -> (bundle: Bundle, recordings: URL, root: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-\(UUID().uuidString)", isDirectory: true)
        let recordings = root.appendingPathComponent("Tests.xctest/Package_Tests.bundle/Recordings", isDirectory: true)
        try FileManager.default.createDirectory(at: recordings.appendingPathComponent("github"), withIntermediateDirectories: true)
        try Cassette(name: "users", interactions: [.stub("GET", "/users/octocat", json: ["login": "octocat"])])
            .save(to: recordings.appendingPathComponent("github/users.json"))
        let bundle = try #require(Bundle(path: root.appendingPathComponent("Tests.xctest").path))
        return (bundle, recordings, root)
    }

    @Test func noSourceTree_findsTheRecordingsShippedInATestBundle_andLoadsItsCassettes() throws {
        // Given a test file path that does not exist here, and a test bundle shipping Recordings
        let (bundle, recordings, root) = try Self.testBundle()
        defer { try? FileManager.default.removeItem(at: root) }
        // When the recordings folder is looked for
        let found = try #require(
            RecordingsFolder.nearest(
                to: "/nonexistent-source-tree/Tests/AppTests/ProfileTests.swift",
                environment: [:], bundles: [bundle]))
        // Then it is the bundle's, and a cassette loads from it by name
        #expect(found.standardizedFileURL.path == recordings.standardizedFileURL.path)
        #expect(try RecordingsFolder.cassettes(named: "github/users", in: found).map(\.name) == ["users"])
    }

    @Test func sourceTreeReachable_winsOverABundle() throws {
        let (bundle, recordings, root) = try Self.testBundle()
        defer { try? FileManager.default.removeItem(at: root) }
        let found = try #require(RecordingsFolder.nearest(to: #filePath, environment: [:], bundles: [bundle]))
        #expect(found.standardizedFileURL.path != recordings.standardizedFileURL.path)
    }

    @Test func neitherSourceTreeNorBundle_isNil() {
        #expect(RecordingsFolder.nearest(to: "/nonexistent-source-tree/Tests/AppTests/ProfileTests.swift", environment: [:], bundles: []) == nil)
    }
}
