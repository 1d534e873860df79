import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The cassettes one test replays or records, resolved from its ``RecordMode``: what the server loads, how
/// it is configured, and what becomes of the recorded file once the test is over. Shared by
/// ``withMockServer(replaying:in:upstream:configuration:filePath:function:_:)`` and the Swift Testing trait.
package struct TestCassette: Sendable {
    /// The variable that, when set, names the upstream every recording forwards to instead of the one the
    /// test or the cassette gives: a staging server, or a local one in CI.
    static let upstreamVariable = "MOCKSERVER_UPSTREAM"
    /// The variable giving, in days, the age beyond which a replayed cassette earns a warning.
    static let maxAgeVariable = "MOCKSERVER_MAX_AGE_DAYS"

    /// The mode the cassette is used in.
    let mode: RecordMode
    /// The cassettes the server replays (in ``RecordMode/newEpisodes`` mode the recording reads its file itself).
    let cassettes: [Cassette]
    /// The caller's configuration with the mode and recording options the record mode asks for.
    let configuration: ReplayServer.Configuration
    /// The replayed cassettes as read from their files once per process (see ``CassetteFileCache``), shared
    /// with every other server on them; `nil` for cassettes given in code.
    private let loaded: [LoadedCassette]?
    /// Replayed cassettes older than `MOCKSERVER_MAX_AGE_DAYS`, one sentence each, for the caller to show.
    package let warnings: [String]
    /// The cassette file a recording settles into.
    private let file: URL?
    /// In ``RecordMode/all`` mode, the file the new recording is written to until the test has passed.
    private let pending: URL?

    /// Resolves `names` (cassette names relative to `folder`, as in ``RecordingsFolder/cassettes(named:in:)``)
    /// for `mode`. `upstream` is the call site's; `test` names the test in the command that records a
    /// missing cassette.
    /// - Throws: ``MockServerError`` for a cassette missing in replay mode, several names in a mode that
    ///   records one file, or no upstream when one is needed; ``MockServerError`` for an invalid upstream;
    ///   ``MockServerError`` for an unreadable cassette.
    package init(names: [String], folder: URL, upstream: String?, mode: RecordMode, configuration: ReplayServer.Configuration,
                 test: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        self.mode = mode
        var configuration = configuration
        let missing = names.filter { !Self.exists($0, in: folder) }
        let records = mode == .newEpisodes || mode == .all || (mode == .once && !missing.isEmpty)
        if records && names.count != 1 {
            throw MockServerError(.invalidConfiguration, "\(RecordMode.recordVariable)=\(mode.rawValue) records one cassette per test, not \(names.count) (\(names.joined(separator: ", ")))")
        }
        switch mode {
        case .once where missing.isEmpty, .none:
            if let name = missing.first {
                throw MockServerError(.cassetteNotFound, "no cassette \(name) at \(Self.file(name, in: folder).path); record it with `\(RecordMode.recordVariable)=once swift test\(test.map { " --filter \($0)" } ?? "")`")
            }
            let read = try Self.load(names, in: folder)
            loaded = read
            cassettes = read.map(\.cassette)
            file = nil
            pending = nil
        case .live:
            loaded = nil
            cassettes = []
            file = nil
            pending = nil
            let existing = try Self.load(names.filter { !missing.contains($0) }, in: folder)
            let upstream = try Self.upstream(upstream, recorded: existing.lazy.compactMap(\.cassette.upstream).first,
                                             for: names.joined(separator: ", "), environment: environment)
            configuration.mode = .passThrough
            configuration.recording = RecordingOptions(upstream: upstream)
        case .once, .newEpisodes, .all:
            let name = names[0]
            let target = Self.file(name, in: folder)
            let old = Self.exists(name, in: folder) ? try Cassette.load(from: target) : nil
            let upstream = try Self.upstream(upstream, recorded: old?.upstream, for: name, environment: environment)
            loaded = nil
            cassettes = []
            file = target
            pending = mode == .all
                ? target.deletingLastPathComponent().appendingPathComponent("\(target.lastPathComponent).recording-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
                : nil
            configuration.mode = mode == .newEpisodes ? .replayOrRecord : .record
            // Redaction as `recorder capture` applies it: the default rules.
            configuration.recording = RecordingOptions(upstream: upstream, file: pending ?? target,
                                                       name: old?.name ?? name.replacingOccurrences(of: "/", with: "-"))
        }
        self.configuration = configuration
        warnings = try Self.ageWarnings(cassettes, environment: environment)
    }

    /// Replays `cassettes` as they are, whatever the environment's record mode.
    init(replaying cassettes: [Cassette], configuration: ReplayServer.Configuration) {
        mode = .none
        self.cassettes = cassettes
        loaded = nil
        self.configuration = configuration
        warnings = []
        file = nil
        pending = nil
    }

    /// Settles the recording once the server has stopped: saves what a failed save left in memory and, in
    /// ``RecordMode/all`` mode, moves the new recording over the old cassette when `passed`. A failed test
    /// leaves the old cassette untouched and the new recording beside it; a test that recorded nothing leaves
    /// the old cassette as it is.
    /// - Throws: ``MockServerError`` when saving or moving fails, or (in ``RecordMode/all`` mode) when the
    ///   test failed, naming both files.
    package func finish(_ server: ReplayServer, passed: Bool) throws(MockServerError) {
        guard let file else { return }
        do {
            try server.saveRecording()
        } catch {
            throw MockServerError(.cannotSave, "the recording of \(file.path) was not saved: \(error.description)")
        }
        guard let pending, FileManager.default.fileExists(atPath: pending.path) else { return }
        guard passed else {
            throw MockServerError(.cannotSave, "the test failed, so \(RecordMode.recordVariable)=all left \(file.path) as it was; the new recording is in \(pending.path)")
        }
        do {
            try AtomicFile.move(pending, over: file)
        } catch {
            throw MockServerError(.cannotSave, "the new recording stays in \(pending.path): \(error.description)")
        }
    }

    /// Starts a server, runs `body` with it (also reachable as ``ReplayServer/current``), stops it, settles
    /// the recording with ``finish(_:passed:)`` (`passed` judges `body`'s result; a throwing `body` failed)
    /// and, in strict mode, throws when a request went unmatched.
    package func withServer<Result>(_ body: (ReplayServer) async throws -> Result,
                                    passed: (Result) -> Bool) async throws -> Result {
        let server: ReplayServer
        if let loaded {
            server = try ReplayServer(loaded: loaded, configuration: configuration)
        } else {
            server = try ReplayServer(cassettes: cassettes, configuration: configuration)
        }
        try await server.start()
        let result: Result
        do {
            result = try await ReplayServer.$current.withValue(server) { try await body(server) }
        } catch {
            await server.stop()
            try? finish(server, passed: false)
            throw error
        }
        await server.stop()
        try finish(server, passed: passed(result))
        if configuration.strict {
            try server.verifyNoUnmatchedRequests()
        }
        return result
    }

    private static func file(_ name: String, in folder: URL) -> URL {
        folder.appendingPathComponent(name.hasSuffix(".json") ? name : name + ".json")
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
            cassettes += try RecordingsFolder.loadedCassettes(named: name, in: folder)
        }
        return cassettes
    }

    /// `MOCKSERVER_UPSTREAM`, else the call site's, else the recorded cassette's upstream.
    private static func upstream(_ callSite: String?, recorded: String?, for name: String,
                                 environment: [String: String]) throws -> Upstream {
        let override = environment[upstreamVariable].flatMap { $0.isEmpty ? nil : $0 }
        guard let text = override ?? callSite ?? recorded else {
            throw MockServerError(.missingOptions, "recording \(name) needs an upstream: pass `upstream:` where the test names the cassette, give the cassette an `upstream` field, or set \(upstreamVariable)")
        }
        return try Upstream(text)
    }

    private static func ageWarnings(_ cassettes: [Cassette], environment: [String: String]) throws(MockServerError) -> [String] {
        guard let text = environment[maxAgeVariable], !text.isEmpty else { return [] }
        guard let days = Int(text), days >= 0 else {
            throw MockServerError(.invalidConfiguration, "\(maxAgeVariable)='\(text)' is not a whole number of days")
        }
        let now = Date()
        return cassettes.compactMap { cassette in
            guard let recordedAt = cassette.recordedAt else { return nil }
            let age = Int(now.timeIntervalSince(recordedAt) / 86_400)
            guard age > days else { return nil }
            return "cassette \(cassette.name) was recorded \(age) days ago, more than \(maxAgeVariable)=\(days); re-record it with `\(RecordMode.recordVariable)=all swift test`"
        }
    }
}
