import Foundation
import ServiceReplayShared
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One test's session with its cassettes (not a cassette itself): the cassettes it replays or records,
/// resolved from its ``RecordMode``, what the server loads, how it is configured, and what becomes of the
/// recorded file once the test is over. Shared by
/// ``withMockServer(replaying:in:upstream:configuration:filePath:function:_:)`` and the Swift Testing trait.
package struct CassetteSession: Sendable {
    /// The variable that, when set, names the upstream every recording forwards to instead of the one the
    /// test or the cassette gives: a staging server, or a local one in CI.
    static let upstreamVariable = RecordVariables.upstream
    /// The variable giving, in days, the age beyond which a replayed cassette earns a warning.
    static let maxAgeVariable = "MOCKSERVER_MAX_AGE_DAYS"

    /// The mode the cassette is used in.
    let mode: RecordMode
    /// The cassettes the server replays, files as read once per process (see ``CassetteFileCache``) and shared
    /// with every other server on them (in ``RecordMode/newEpisodes`` mode the recording reads its file itself).
    let cassettes: [LoadedCassette]
    /// The caller's configuration with the mode and recording options the record mode asks for.
    let configuration: CassetteServer.Configuration
    /// Replayed cassettes older than `MOCKSERVER_MAX_AGE_DAYS`, one sentence each, for the caller to show.
    package let warnings: [String]
    /// The cassette file a recording settles into.
    let file: URL?
    /// In ``RecordMode/all`` mode, the file the new recording is written to until the test has passed.
    let pending: URL?
    /// In ``RecordMode/drift`` mode, the comparison of the live answers with the cassettes.
    let drift: DriftCheck?
    /// In ``RecordMode/all`` mode, the cassette being re-recorded, whose hand-written parts (``Cassette/note``,
    /// ``Cassette/matching``, ``Cassette/errorTemplates``) the new recording keeps.
    let old: Cassette?
    /// The folders holding ``file`` that did not exist when the session began, deepest first: the recording
    /// creates them, and ``finish(_:passed:)`` removes those it leaves empty.
    let createdFolders: [URL]

    /// Resolves `names` (cassette names relative to `folder`, as in ``RecordingsFolder/cassettes(named:in:)``)
    /// for `mode`. `upstream` is the call site's; `test` names the test in the command that records a
    /// missing cassette.
    /// - Throws: ``MockServerError`` for a cassette missing in replay mode, several names in a mode that
    ///   records one file, or no upstream when one is needed; ``MockServerError`` for an invalid upstream;
    ///   ``MockServerError`` for an unreadable cassette, and for a rules file in `folder` that is malformed
    ///   where the mode forwards to the upstream.
    package init(
        names: [String], folder: URL, upstream: String?, mode: RecordMode, configuration: CassetteServer.Configuration,
        test: String?, environment: [String: String] = TestEnvironment.current
    ) throws {
        self.mode = mode
        var configuration = configuration
        // Random faults draw per test (see CassetteServer.Configuration.faultIdentity).
        configuration.faultIdentity = ([test ?? ""] + names).joined(separator: "\n")
        // The control API switches cassettes by name from here.
        configuration.recordingsFolder = folder
        var drift: DriftCheck?
        let missing = names.filter { !Self.exists($0, in: folder) }
        // A cassette an earlier test of this process recorded under `once` is appended to (see CassetteTurns).
        let appendsOnce =
            mode == .once && names.count == 1 && missing.isEmpty
            && CassetteTurns.shared.wasClaimed(Self.file(names[0], in: folder))
        let records = mode == .newEpisodes || mode == .all || (mode == .once && !missing.isEmpty)
        if records && names.count != 1 {
            throw MockServerError(
                .invalidConfiguration,
                "\(RecordMode.recordVariable)=\(mode.rawValue) records one cassette per test, not \(names.count) (\(names.joined(separator: ", ")))")
        }
        var createdFolders: [URL] = []
        switch mode {
        case .once where missing.isEmpty && !appendsOnce, .none:
            if let name = missing.first { throw Self.notFound(name, in: folder, test: test) }
            cassettes = try Self.load(names, in: folder)
            file = nil
            pending = nil
            old = nil
        case .live, .drift:
            cassettes = []
            file = nil
            pending = nil
            old = nil
            let existing = try Self.load(names.filter { !missing.contains($0) }, in: folder)
            let upstream = try Self.upstream(
                upstream, recorded: existing.lazy.compactMap(\.metadata.upstream).first,
                for: names.joined(separator: ", "), environment: environment)
            configuration.mode = .passThrough
            configuration.recording = RecordingOptions(upstream: upstream, redaction: try Self.redaction(in: folder))
            if mode == .drift {
                let check = DriftCheck(cassettes: existing.map(\.cassette), matching: configuration.matching)
                configuration.recording?.onExchange = { check.keep($0) }
                drift = check
            }
        case .once, .newEpisodes, .all:
            let name = names[0]
            let target = Self.file(name, in: folder)
            let old = Self.exists(name, in: folder) ? try Cassette.load(from: target) : nil
            let upstream = try Self.upstream(upstream, recorded: old?.upstream, for: name, environment: environment)
            // Under `all`, a cassette an earlier test of this process re-recorded is copied and appended to.
            let continues = mode == .all && old != nil && CassetteTurns.shared.wasReplaced(target)
            cassettes = []
            file = target
            createdFolders = Self.missingFolders(holding: target)
            let pending =
                mode == .all
                ? target.deletingLastPathComponent().appendingPathComponent(
                    "\(target.lastPathComponent).recording-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
                : nil
            self.pending = pending
            self.old = mode == .all ? old : nil
            if continues, let pending {
                do {
                    try FileManager.default.copyItem(at: target, to: pending)
                } catch {
                    throw MockServerError(.cannotSave, "cannot copy \(target.path) to \(pending.path) to go on re-recording it: \(error.localizedDescription)")
                }
            }
            configuration.mode = mode == .newEpisodes || appendsOnce || continues ? .replayOrRecord : .record
            // Redaction as `recorder capture` applies it: the default rules and the project's rules file.
            configuration.recording = RecordingOptions(
                upstream: upstream, file: pending ?? target,
                name: old?.name ?? name.replacingOccurrences(of: "/", with: "-"), redaction: try Self.redaction(in: folder))
        }
        self.configuration = configuration
        self.drift = drift
        self.createdFolders = createdFolders
        warnings = try Self.ageWarnings(cassettes, environment: environment)
    }

    /// The error for a cassette `name` missing from `folder` where it is only replayed: the file, and the
    /// command that records it for the test `test`.
    package static func notFound(_ name: String, in folder: URL, test: String?) -> MockServerError {
        let missing = "no cassette \(name) at \(file(name, in: folder).path)"
        // A near name is most likely a typo: recording under it would add a second cassette, so that advice is left out.
        let names = ((try? Cassette.files(in: folder)) ?? []).compactMap { ReplayEngine.name(of: $0, in: folder) }
        let bare = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        if let near = NearestName.nearest(to: bare, among: names.sorted()) {
            return MockServerError(.cassetteNotFound, "\(missing); did you mean \(near)? (\(file(near, in: folder).path))")
        }
        return MockServerError(
            .cassetteNotFound,
            "\(missing); record it with `\(RecordMode.recordVariable)=once swift test\(test.map { " --filter \($0)" } ?? "")` (from xcodebuild, `TEST_RUNNER_\(RecordMode.recordVariable)=once xcodebuild test ...`)"
        )
    }

    /// Replays `cassettes` as they are, whatever the environment's record mode.
    init(replaying cassettes: [Cassette], configuration: CassetteServer.Configuration) {
        self.init(replaying: cassettes.map(LoadedCassette.init), configuration: configuration)
    }

    /// Replays `cassettes`, read and prepared already, whatever the environment's record mode.
    package init(replaying cassettes: [LoadedCassette], configuration: CassetteServer.Configuration) {
        mode = .none
        self.cassettes = cassettes
        self.configuration = configuration
        warnings = []
        drift = nil
        file = nil
        pending = nil
        old = nil
        createdFolders = []
    }

    static func file(_ name: String, in folder: URL) -> URL {
        folder.appendingPathComponent(name.hasSuffix(".json") ? name : name + ".json")
    }

    /// The folders above `file` that do not exist, deepest first, up to the first that does (64 at most).
    static func missingFolders(holding file: URL) -> [URL] {
        var missing: [URL] = []
        var folder = file.standardizedFileURL.deletingLastPathComponent()
        for _ in 0..<64 {
            if FileManager.default.fileExists(atPath: folder.path) { break }
            missing.append(folder)
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        return missing
    }

    /// Whether `name` is a cassette file (or the capture log a killed recording left of one) or a folder of
    /// cassettes in `folder`.
    private static func exists(_ name: String, in folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: file(name, in: folder).path)
            || FileManager.default.fileExists(atPath: CaptureLog.url(for: file(name, in: folder)).path)
            || FileManager.default.fileExists(atPath: folder.appendingPathComponent(name, isDirectory: true).path)
    }

    private static func load(_ names: [String], in folder: URL) throws -> [LoadedCassette] {
        var cassettes: [LoadedCassette] = []
        for name in names {
            cassettes += try NamedCassettes.loaded(named: name, in: folder)
        }
        return cassettes
    }

    /// The rules every recording into `folder` redacts by: the default ones and the project's rules file
    /// `.servicereplay.json` in `folder` when there is one (see ``ProjectRules``).
    /// - Throws: ``MockServerError`` naming the rules file when it cannot be read or is malformed.
    private static func redaction(in folder: URL) throws(MockServerError) -> RedactionRules {
        let project = try ProjectRules.governing(folder.appendingPathComponent(ProjectRules.fileName), root: folder)
        return project.map(RedactionRules.default.adding) ?? .default
    }

    /// `MOCKSERVER_UPSTREAM`, else the call site's, else the recorded cassette's upstream.
    private static func upstream(
        _ callSite: String?, recorded: String?, for name: String,
        environment: [String: String]
    ) throws -> Upstream {
        let override = environment[upstreamVariable].flatMap { $0.isEmpty ? nil : $0 }
        guard let text = override ?? callSite ?? recorded else {
            throw MockServerError(
                .missingOptions,
                "recording \(name) needs an upstream: pass `upstream:` where the test names the cassette, give the cassette an `upstream` field, or set \(upstreamVariable)"
            )
        }
        return try Upstream(text)
    }

    private static func ageWarnings(_ cassettes: [LoadedCassette], environment: [String: String]) throws(MockServerError) -> [String] {
        guard let text = environment[maxAgeVariable], !text.isEmpty else { return [] }
        guard let days = Int(text), days >= 0 else {
            throw MockServerError(.invalidConfiguration, "\(maxAgeVariable)='\(text)' is not a whole number of days")
        }
        let now = Date()
        return cassettes.map(\.metadata).compactMap { cassette in
            guard let recordedAt = cassette.recordedAt else { return nil }
            let age = Int(now.timeIntervalSince(recordedAt) / 86_400)
            guard age > days else { return nil }
            return
                "cassette \(cassette.name) was recorded \(age) days ago, more than \(maxAgeVariable)=\(days); re-record it with `\(RecordMode.recordVariable)=all swift test`"
        }
    }
}
