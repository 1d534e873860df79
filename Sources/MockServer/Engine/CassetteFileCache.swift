import Foundation
import ServiceReplayShared

/// Cassette files read once per process: a test suite that starts a server on the same cassette for each
/// of a thousand tests decodes and prepares it once, not a thousand times.
///
/// An entry is used only while the file is unchanged: same path, size, modification time and file number
/// (an atomic save replaces the file, so its number changes even within the clock's resolution), and never
/// while a capture log lies beside it. Files
/// over ``maximumFileSize`` are not kept, and past ``byteLimit`` of files in total the oldest entries go.
/// Thread-safe; files are read outside the lock, so two first loads of one file may both read it.
package final class CassetteFileCache: Sendable {
    /// The cache `withMockServer(replaying:)`, ``RecordingsFolder`` and the fault matrix use.
    package static let shared = CassetteFileCache()

    /// Larger files are read each time rather than kept for the life of the process.
    static let maximumFileSize = 8 << 20
    /// The most file bytes kept at once (the prepared form takes about as much memory again).
    static let byteLimit = 64 << 20

    private struct FileIdentity: Equatable {
        let size: Int
        let modified: Date?
        let fileNumber: UInt64?
    }

    private struct Entry {
        let identity: FileIdentity
        let loaded: LoadedCassette
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Paths in the order they were stored, oldest first.
        var order: [String] = []
        var bytes = 0
    }

    private let state = Lock(State())

    init() {}

    /// The cassette at `url`, read now or earlier while the file was as it is now.
    /// - Throws: ``MockServerError`` as ``Cassette/load(from:)`` does.
    package func load(_ url: URL) throws(MockServerError) -> LoadedCassette {
        let path = url.standardizedFileURL.path
        // A killed recording's capture log applies (see Cassette.read), and the cache knows the file, not the
        // log; unreadable attributes: let the read report the problem.
        guard !FileManager.default.fileExists(atPath: CaptureLog.url(for: url).path),
            let identity = Self.identity(ofFileAt: path)
        else {
            return try LoadedCassette(contentsOf: url)
        }
        if let entry = state.withLock({ $0.entries[path] }), entry.identity == identity {
            return entry.loaded
        }
        let loaded = try LoadedCassette(contentsOf: url)
        if identity.size <= Self.maximumFileSize {
            store(Entry(identity: identity, loaded: loaded), at: path)
        }
        return loaded
    }

    private func store(_ entry: Entry, at path: String) {
        state.withLock { state in
            if let replaced = state.entries.updateValue(entry, forKey: path) {
                state.bytes -= replaced.identity.size
                state.order.removeAll { $0 == path }
            }
            state.order.append(path)
            state.bytes += entry.identity.size
            while state.bytes > Self.byteLimit, let oldest = state.order.first {
                state.order.removeFirst()
                state.bytes -= state.entries.removeValue(forKey: oldest)?.identity.size ?? 0
            }
        }
    }

    private static func identity(ofFileAt path: String) -> FileIdentity? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.intValue
        else {
            return nil
        }
        return FileIdentity(
            size: size, modified: attributes[.modificationDate] as? Date,
            fileNumber: (attributes[.systemFileNumber] as? NSNumber)?.uint64Value)
    }
}
