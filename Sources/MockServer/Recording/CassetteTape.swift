import Dispatch
import Foundation
import ServiceReplayShared
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The cassette a recording server writes.
///
/// Each exchange is appended to the capture log beside the file (see ``CaptureLog``) with one `write(2)`
/// before its client is answered: work that does not grow with the cassette, and enough for every reader
/// to see the exchange even after a kill. A streamed response goes to the log as it arrives (see
/// ``beginStream(_:)``), so a long stream is durable without being held in memory while it lasts; it joins
/// the cassette when it ends. The readable cassette file is rewritten off the clients' path, on
/// a serial queue: at most once per ``checkpointInterval`` while recording (less often for a cassette so
/// large that rewriting it takes more than a twentieth of that), and at ``flush()``, which then removes the
/// log.
final class CassetteTape: Sendable {
    /// How often, at most, the readable cassette is rewritten while recording.
    static let checkpointInterval: Double = 5

    private struct State {
        var cassette: Cassette
        /// Interactions appended since the tape opened; the log holds the first `logged` of them.
        var appended = 0
        var logged = 0
        /// The cassette file holds the first `saved` appended interactions.
        var saved = 0
        /// The open log, or -1 (no file, or the log could not be written: then only saves make exchanges durable).
        var logDescriptor: Int32 = -1
        /// How many bytes the log holds.
        var logSize = 0
        /// The streams begun and not yet ended, by number; the next number to give.
        var openStreams: [Int: OpenStream] = [:]
        var nextStream = 0
        /// Whether the file is ours to replace: it existed and we append to it, or we wrote it.
        var ownsFile: Bool
        var checkpointScheduled = false
        /// Seconds until the next checkpoint once one is due: the interval, or twenty times what the last
        /// rewrite took, so that rewriting a large cassette never takes more than a twentieth of the time.
        var checkpointDelay = CassetteTape.checkpointInterval
    }

    /// A stream being recorded.
    private struct OpenStream {
        /// The stream's interaction, its body an empty stream.
        var head: Interaction
        /// Where its head line starts in the log, when the log holds its first parts.
        var logOffset: Int?
        /// Its parts that the log does not hold (all of them without a log; those after a failed write).
        var held: [RecordedStream.Part] = []
        /// Why writing its head or parts to the log failed, if it did.
        var logFailure: String?
    }

    /// The file saved to, or `nil` for a recording kept in memory.
    let file: URL?
    private let state: Lock<State>
    private let saves = DispatchQueue(label: "MockServer.CassetteTape")

    private init(cassette: Cassette, file: URL?, ownsFile: Bool) {
        self.file = file
        state = Lock(State(cassette: cassette, ownsFile: ownsFile))
    }

    deinit {
        let descriptor = state.withLock { $0.logDescriptor }
        if descriptor >= 0 { close(descriptor) }
    }

    /// Opens the recording `options` describe. Without a file, or when neither the file nor a capture log
    /// exists, a new cassette is started. An existing cassette is refused unless `appending` (`replayOrRecord`
    /// mode), and then loaded, to be appended to, with what a killed recording's log adds; the loaded cassette
    /// is returned so that it can be replayed too. A fresh capture log is then started beside the file.
    /// - Throws: ``MockServerError`` `cassetteExists`, `unreadableCassette`, `differentUpstream`, or
    ///   `cannotSave` when the folder cannot hold the log.
    static func open(_ options: RecordingOptions, appending: Bool) throws(MockServerError) -> (tape: CassetteTape, existing: Cassette?) {
        let upstream = options.upstream
        guard let file = options.file else {
            return (CassetteTape(cassette: newCassette(options), file: nil, ownsFile: false), nil)
        }
        let path = file.relativePath
        let logURL = CaptureLog.url(for: file)
        let fileExists = FileManager.default.fileExists(atPath: file.path)
        guard fileExists || FileManager.default.fileExists(atPath: logURL.path) else {
            let tape = CassetteTape(cassette: newCassette(options), file: file, ownsFile: false)
            try tape.startLog(base: nil)
            return (tape, nil)
        }
        guard appending else {
            let what = fileExists ? path : "\(path) (as the capture log of an interrupted recording, \(logURL.relativePath))"
            throw MockServerError(
                .cassetteExists,
                "\(what) already exists; record mode never replaces a cassette (append to it in replay-or-record mode, or record into another file)")
        }
        var cassette: Cassette
        let log: CaptureLog.Contents?
        do {
            (cassette, log) = try Cassette.loadApplyingLog(from: file)
        } catch {
            throw MockServerError(.unreadableCassette, "cannot append to \(path): \(error.description)")
        }
        if let recorded = cassette.upstream, (try? Upstream(recorded)) != upstream, recorded != upstream.description {
            throw MockServerError(
                .differentUpstream, "\(path) was recorded from \(recorded), not \(upstream); record new episodes from the same upstream, or into another file")
        }
        let existing = cassette
        cassette.upstream = cassette.upstream ?? upstream.description
        let tape = CassetteTape(cassette: cassette, file: file, ownsFile: true)
        if log != nil {
            try tape.retireLog(logURL, holding: existing)
        }
        try tape.startLog(base: try? Cassette.contents(of: file))
        return (tape, existing)
    }

    private static func newCassette(_ options: RecordingOptions) -> Cassette {
        let name = options.name ?? options.file.map { $0.deletingPathExtension().lastPathComponent } ?? options.upstream.url.host ?? "recording"
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        return Cassette(name: name, upstream: options.upstream.description, origin: .recorded, recordedAt: now)
    }

    /// Folds a killed recording's log into the file: the cassette as loaded (`merged`) is saved, announced
    /// in the old log first, and the log removed; a log that did not apply to the file is kept aside as
    /// `NAME.json.log.stale-SECONDS`, never applied.
    private func retireLog(_ logURL: URL, holding merged: Cassette) throws(MockServerError) {
        guard let file else { return }
        let data = try? Cassette.contents(of: file)
        let log = CaptureLog.read(logURL)
        if let log, let missing = log.missing(fromFileWithDigest: CaptureLog.digest(data)) {
            if !missing.isEmpty {
                let bytes = merged.encoded()
                let marker = CaptureLog.checkpointLine(count: log.interactions.count, digest: CaptureLog.digest(bytes))
                try Self.append(marker, toFileAt: logURL)
                do {
                    try AtomicFile.write(bytes, to: file, overwrite: true)
                } catch {
                    throw MockServerError(.cannotSave, error.description)
                }
            }
            unlink(logURL.path)
        } else {
            let aside = logURL.path + ".stale-\(Int(Date().timeIntervalSince1970))"
            guard rename(logURL.path, aside) == 0 else {
                throw MockServerError(.cannotSave, "cannot move the stale capture log \(logURL.relativePath) aside (\(String(cString: strerror(errno))))")
            }
        }
    }

    /// Creates the log for this session, extending the file whose bytes are `base` (`nil`: no file yet).
    private func startLog(base: Data?) throws(MockServerError) {
        guard let file else { return }
        let logURL = CaptureLog.url(for: file)
        var descriptor: Int32 = -1
        // A test's session that recorded nothing removes the empty folders it created for its cassette, which
        // may be this one's folder too, between its creation here and the log's: it is created again then.
        for _ in 0..<3 {
            do {
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw MockServerError(.cannotSave, "cannot create the folder for \(file.relativePath) (\(Cassette.reason(of: error)))")
            }
            descriptor = Sys.openFile(logURL.path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
            if descriptor >= 0 || errno != ENOENT { break }
        }
        guard descriptor >= 0 else {
            throw MockServerError(.cannotSave, "cannot create the capture log \(logURL.relativePath) (\(String(cString: strerror(errno))))")
        }
        let header = state.withLock { CaptureLog.headerLine(base: CaptureLog.digest(base), cassette: $0.cassette) }
        if let failure = Self.write(header, to: descriptor) {
            close(descriptor)
            unlink(logURL.path)
            throw MockServerError(.cannotSave, "cannot write the capture log \(logURL.relativePath) (\(failure))")
        }
        state.withLock { state in
            state.logDescriptor = descriptor
            state.logSize = header.count
        }
    }

    /// The cassette as recorded so far.
    var cassette: Cassette {
        state.withLock { $0.cassette }
    }

    /// Appends `interaction` and makes it durable in the log (when there is a file), and returns its index
    /// and, when the log could not be written, why: the exchange is then kept in memory for the next save.
    func append(_ interaction: Interaction) -> (index: Int, saveError: MockServerError?) {
        let line = file == nil ? [] : CaptureLog.interactionLine(interaction)
        return add(interaction, loggedBy: line)
    }

    /// Begins recording a streamed response: `head` is its interaction with an empty stream body, already
    /// redacted. Logs it (when there is a log) and returns the stream's number for ``appendStream(_:parts:)``
    /// and ``endStream(_:ending:durationMs:)``. The stream is not part of ``cassette`` until it ends.
    func beginStream(_ head: Interaction) -> Int {
        let id = state.withLock { state in
            defer { state.nextStream += 1 }
            return state.nextStream
        }
        let line = file == nil ? [] : CaptureLog.streamHeadLine(id, head: head)
        state.withLock { state in
            let offset = state.logSize
            var stream = OpenStream(head: head)
            switch Self.writeLog(line, in: &state) {
            case .written: stream.logOffset = offset
            case .noLog: break
            case .failed(let reason): stream.logFailure = reason
            }
            state.openStreams[id] = stream
        }
        return id
    }

    /// Adds `parts` (already redacted) to stream `id`: to the log when the stream's earlier parts are there,
    /// else to memory.
    func appendStream(_ id: Int, parts: [RecordedStream.Part]) {
        guard !parts.isEmpty else { return }
        let line = file == nil ? [] : CaptureLog.streamPartsLine(id, parts: parts)
        state.withLock { state in
            guard var stream = state.openStreams[id] else { return }
            if stream.logOffset != nil, stream.held.isEmpty {
                switch Self.writeLog(line, in: &state) {
                case .written: return
                case .noLog: break
                case .failed(let reason): stream.logFailure = reason
                }
            }
            stream.held += parts
            state.openStreams[id] = stream
        }
    }

    /// Ends stream `id` as `ending` says, which makes it the next interaction of the cassette (its parts read
    /// back from the log, stored as ``RecordedStream/recordedBody(contentType:)`` decides); returns the interaction, its index, and why it could not be logged, as ``append(_:)``.
    func endStream(_ id: Int, ending: RecordedStream.Ending, durationMs: Int?) -> (interaction: Interaction, index: Int, saveError: MockServerError?)? {
        guard let (stream, logEnd) = state.withLock({ state in state.openStreams[id].map { ($0, state.logSize) } }) else { return nil }
        // Read outside the lock: only this stream's producer, which is ending it now, adds to its parts.
        var parts: [RecordedStream.Part] = []
        if let offset = stream.logOffset, let file {
            parts = CaptureLog.streamParts(id, in: CaptureLog.url(for: file), from: offset, to: logEnd) ?? []
        }
        var interaction = stream.head
        if case .response(var response) = interaction.outcome {
            response.body = RecordedStream(parts + stream.held, ending: ending).recordedBody(contentType: response.headers["Content-Type"])
            interaction.outcome = .response(response)
        }
        interaction.durationMs = durationMs
        let line = stream.logOffset == nil || file == nil ? [] : CaptureLog.streamEndLine(id, ending: ending, durationMs: durationMs)
        let (index, saveError) = add(interaction, loggedBy: line, endingStream: id)
        if saveError == nil, let reason = stream.logFailure, let file {
            return (interaction, index, Self.logFailure(reason, file: file))
        }
        return (interaction, index, saveError)
    }

    /// Appends `interaction` to the cassette and `line` to the log, under one lock so that both keep the same
    /// order; schedules a checkpoint. `endingStream` is the open stream the interaction ends, if any.
    private func add(_ interaction: Interaction, loggedBy line: [UInt8], endingStream: Int? = nil) -> (index: Int, saveError: MockServerError?) {
        let (index, failure, checkpointDelay) = state.withLock { state -> (Int, String?, Double?) in
            state.cassette.interactions.append(interaction)
            state.appended += 1
            var failure: String?
            if let endingStream {
                state.openStreams[endingStream] = nil
            }
            if !line.isEmpty {
                switch Self.writeLog(line, in: &state) {
                case .written: state.logged += 1
                case .noLog: break
                case .failed(let reason): failure = reason
                }
            }
            let schedule = file != nil && !state.checkpointScheduled
            if schedule { state.checkpointScheduled = true }
            return (state.cassette.interactions.count - 1, failure, schedule ? state.checkpointDelay : nil)
        }
        if let checkpointDelay {
            saves.asyncAfter(deadline: .now() + checkpointDelay) {
                self.state.withLock { $0.checkpointScheduled = false }
                let start = ContinuousClock.now
                _ = self.save()
                let spent = DurationSpelling.seconds(ContinuousClock.now - start)
                self.state.withLock { $0.checkpointDelay = max(Self.checkpointInterval, spent * 20) }
            }
        }
        guard let failure, let file else { return (index, nil) }
        return (index, Self.logFailure(failure, file: file))
    }

    private static func logFailure(_ reason: String, file: URL) -> MockServerError {
        MockServerError(
            .cannotSave,
            "cannot append to the capture log \(CaptureLog.url(for: file).relativePath) (\(reason)); the exchange is kept in memory until the cassette is saved"
        )
    }

    /// Saves the cassette now if any appended interaction is not in the file yet, then removes the log.
    /// - Throws: ``MockServerError`` `cannotSave` or `cassetteExists` when the file cannot be written; the
    ///   log and the file then stay as they were, holding every exchange they already held.
    func flush() throws(MockServerError) {
        if let error = saves.sync(execute: { settle() }) { throw error }
    }

    /// ``flush()`` without holding the caller's thread while the file is written; returns its error.
    func flushed() async -> MockServerError? {
        await withCheckedContinuation { continuation in
            saves.async { continuation.resume(returning: self.settle()) }
        }
    }

    /// Saves, then closes and removes the log once the file holds everything. Runs on `saves` only.
    private func settle() -> MockServerError? {
        guard let file else { return nil }
        if let error = save() { return error }
        // An open stream's parts are in the log only: it stays until the stream ends and a later save.
        guard
            let descriptor = state.withLock({ state -> Int32? in
                guard state.openStreams.isEmpty else { return nil }
                defer { state.logDescriptor = -1 }
                return state.logDescriptor
            })
        else { return nil }
        if descriptor >= 0 { close(descriptor) }
        unlink(CaptureLog.url(for: file).path)
        return nil
    }

    /// Writes the newest state unless the file already holds every appended interaction. The checkpoint is
    /// logged before the file is replaced, so that a reader can tell which logged interactions the new file
    /// holds whether or not the replacement happened. Runs on `saves` only.
    private func save() -> MockServerError? {
        guard let file else { return nil }
        guard
            let (cassette, appended, logged, ownsFile) = state.withLock({ state -> (Cassette, Int, Int, Bool)? in
                state.saved >= state.appended ? nil : (state.cassette, state.appended, state.logged, state.ownsFile)
            })
        else { return nil }
        let bytes = cassette.encoded()
        let marker = CaptureLog.checkpointLine(count: logged, digest: CaptureLog.digest(bytes))
        state.withLock { state in _ = Self.writeLog(marker, in: &state) }
        let path = file.relativePath
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            return MockServerError(.cannotSave, "cannot create the folder for \(path) (\(Cassette.reason(of: error)))")
        }
        do {
            try AtomicFile.write(bytes, to: file, overwrite: ownsFile)
        } catch  where error.code == .fileExists {
            return MockServerError(
                .cassetteExists, "\(path) appeared while recording; record mode never replaces a cassette, so the recording is kept in memory only")
        } catch {
            return MockServerError(.cannotSave, error.description)
        }
        state.withLock { state in
            state.saved = max(state.saved, appended)
            state.ownsFile = true
        }
        return nil
    }

    /// What became of a line for the log.
    private enum LogWrite: Equatable {
        case written
        /// There is no log (no file, or an earlier write failed).
        case noLog
        /// The write failed, for this reason; the log is closed for good, since a log with a hole would
        /// misnumber what follows (the saves carry on).
        case failed(String)
    }

    /// Appends `line` to the open log and counts its bytes.
    private static func writeLog(_ line: [UInt8], in state: inout State) -> LogWrite {
        guard state.logDescriptor >= 0 else { return .noLog }
        if let failure = write(line, to: state.logDescriptor) {
            close(state.logDescriptor)
            state.logDescriptor = -1
            return .failed(failure)
        }
        state.logSize += line.count
        return .written
    }

    /// Writes all of `bytes` to `descriptor`; the reason when that fails.
    private static func write(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        let failed = bytes.withUnsafeBytes { Sys.writeAll(descriptor, $0) }
        return failed == 0 ? nil : String(cString: strerror(failed))
    }

    private static func append(_ bytes: [UInt8], toFileAt url: URL) throws(MockServerError) {
        let descriptor = Sys.openFile(url.path, O_WRONLY | O_APPEND | O_CLOEXEC, 0)
        guard descriptor >= 0 else {
            throw MockServerError(.cannotSave, "cannot open the capture log \(url.relativePath) (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        if let failure = write(bytes, to: descriptor) {
            throw MockServerError(.cannotSave, "cannot write the capture log \(url.relativePath) (\(failure))")
        }
    }
}
