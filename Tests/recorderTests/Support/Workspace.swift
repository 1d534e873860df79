import Foundation
import MockServer

/// A temporary folder for one test, filled with copies of repository files; removed by ``remove()``.
struct Workspace {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let recordings = repository.appendingPathComponent("Recordings", isDirectory: true)

    /// Whether the recording at `path` (relative to ``recordings``) holds a streamed answer.
    static func holdsStream(_ path: String) -> Bool {
        guard let cassette = try? Cassette.load(from: recordings.appendingPathComponent(path)) else { return false }
        return cassette.interactions.contains { if case .stream? = $0.response?.body.form { true } else { false } }
    }
    static let browserArchive = repository.appendingPathComponent("Tests/Fixtures/browser.har")

    let folder: URL

    /// A new empty folder.
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Copies `source` to `name` inside the workspace (creating folders) and returns the copy.
    @discardableResult
    func copy(_ source: URL, to name: String) throws -> URL {
        let destination = url(name)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: destination)
        return destination
    }

    /// Copies a recording (`login/login.json`) to `name`.
    @discardableResult
    func copyRecording(_ path: String, to name: String) throws -> URL {
        try copy(Workspace.recordings.appendingPathComponent(path), to: name)
    }

    /// Writes `text` to `name`.
    @discardableResult
    func write(_ text: String, to name: String) throws -> URL {
        let destination = url(name)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: destination)
        return destination
    }

    func url(_ name: String) -> URL {
        folder.appendingPathComponent(name, isDirectory: false)
    }

    func contents(_ name: String) throws -> Data {
        try Data(contentsOf: url(name))
    }

    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: url(name).path)
    }

    /// Runs `recorder` with this folder as its working directory, within `limits`.
    func run(_ arguments: [String], limits: ProcessLimits? = nil) async throws -> RecorderRun {
        try await runRecorder(arguments, in: folder, limits: limits)
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
