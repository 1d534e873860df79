import Dispatch
import Foundation
import Locking

/// The cassette a recording server writes: the interactions so far, saved to the file after every exchange.
///
/// Appends are serialised: each takes the next index under a lock, and saves run one at a time on a serial
/// queue, each writing the newest state. So concurrent exchanges never lose each other, the file always
/// holds a prefix of the recording, and a save that a later one already covered is skipped.
final class CassetteTape: Sendable {
    private struct State {
        var cassette: Cassette
        /// How many interactions were appended; the file holds the first `saved` of them.
        var appended = 0
        var saved = 0
        /// Whether the file is ours to replace: it existed and we append to it, or we wrote it.
        var ownsFile: Bool
    }

    /// The file saved to, or `nil` for a recording kept in memory.
    let file: URL?
    private let state: Lock<State>
    private let saves = DispatchQueue(label: "MockServer.CassetteTape")

    private init(cassette: Cassette, file: URL?, ownsFile: Bool) {
        self.file = file
        state = Lock(State(cassette: cassette, ownsFile: ownsFile))
    }

    /// Opens the recording `options` describe. Without a file, or when the file does not exist, a new
    /// cassette is started (nothing is written until the first exchange). An existing file is refused in
    /// `record` mode and loaded in `replayOrRecord` mode, to be appended to; the loaded cassette is returned
    /// so that it can be replayed too.
    /// - Throws: ``MockServerError`` `cassetteExists`, `unreadableCassette` or `differentUpstream`.
    static func open(_ options: RecordingOptions, mode: ReplayServer.Mode) throws(MockServerError) -> (tape: CassetteTape, existing: Cassette?) {
        let upstream = options.upstream
        guard let file = options.file, FileManager.default.fileExists(atPath: file.path) else {
            let name = options.name ?? options.file.map { $0.deletingPathExtension().lastPathComponent } ?? upstream.url.host ?? "recording"
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            let cassette = Cassette(name: name, upstream: upstream.description, origin: .recorded, recordedAt: now)
            return (CassetteTape(cassette: cassette, file: options.file, ownsFile: false), nil)
        }
        let path = file.relativePath
        guard mode == .replayOrRecord else {
            throw MockServerError(.cassetteExists, "\(path) already exists; record mode never replaces a cassette (append to it in replay-or-record mode, or record into another file)")
        }
        var cassette: Cassette
        do {
            cassette = try Cassette.load(from: file)
        } catch {
            throw MockServerError(.unreadableCassette, "cannot append to \(path): \(error.description)")
        }
        if let recorded = cassette.upstream, (try? Upstream(recorded)) != upstream, recorded != upstream.description {
            throw MockServerError(.differentUpstream, "\(path) was recorded from \(recorded), not \(upstream); record new episodes from the same upstream, or into another file")
        }
        let existing = cassette
        cassette.upstream = cassette.upstream ?? upstream.description
        return (CassetteTape(cassette: cassette, file: file, ownsFile: true), existing)
    }

    /// The cassette as recorded so far.
    var cassette: Cassette {
        state.withLock { $0.cassette }
    }

    /// Appends `interaction`, saves the cassette (when there is a file) and returns the interaction's index
    /// and the save's error, if any. Returns once the file holds the interaction, or the save failed.
    func append(_ interaction: Interaction) async -> (index: Int, saveError: MockServerError?) {
        let (index, count) = state.withLock { state in
            state.cassette.interactions.append(interaction)
            state.appended += 1
            return (state.cassette.interactions.count - 1, state.appended)
        }
        guard file != nil else { return (index, nil) }
        let error = await withCheckedContinuation { continuation in
            saves.async { continuation.resume(returning: self.save(covering: count)) }
        }
        return (index, error)
    }

    /// Saves now if any appended interaction is not in the file yet (an earlier save failed).
    func flush() throws(MockServerError) {
        let count = state.withLock { $0.appended }
        if let error = saves.sync(execute: { save(covering: count) }) { throw error }
    }

    /// Writes the newest state unless the file already holds the first `count` appends. Runs on `saves` only.
    private func save(covering count: Int) -> MockServerError? {
        guard let file else { return nil }
        guard let (cassette, appended, ownsFile) = state.withLock({ state -> (Cassette, Int, Bool)? in
            state.saved >= count ? nil : (state.cassette, state.appended, state.ownsFile)
        }) else { return nil }
        let path = file.relativePath
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            return MockServerError(.cannotSave, "cannot create the folder for \(path) (\(Cassette.reason(of: error)))")
        }
        do {
            try cassette.save(to: file, overwrite: ownsFile)
        } catch where error.code == .fileExists {
            return MockServerError(.cassetteExists, "\(path) appeared while recording; record mode never replaces a cassette, so the recording is kept in memory only")
        } catch {
            return MockServerError(.cannotSave, error.description)
        }
        state.withLock { state in
            state.saved = max(state.saved, appended)
            state.ownsFile = true
        }
        return nil
    }
}
