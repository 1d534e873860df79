import Foundation
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
    private let file: URL?
    /// In ``RecordMode/all`` mode, the file the new recording is written to until the test has passed.
    private let pending: URL?
    /// In ``RecordMode/drift`` mode, the comparison of the live answers with the cassettes.
    private let drift: DriftCheck?
    /// In ``RecordMode/all`` mode, the cassette being re-recorded, whose hand-written parts (``Cassette/note``,
    /// ``Cassette/matching``, ``Cassette/errorTemplates``) the new recording keeps.
    private let old: Cassette?

    /// Resolves `names` (cassette names relative to `folder`, as in ``RecordingsFolder/cassettes(named:in:)``)
    /// for `mode`. `upstream` is the call site's; `test` names the test in the command that records a
    /// missing cassette.
    /// - Throws: ``MockServerError`` for a cassette missing in replay mode, several names in a mode that
    ///   records one file, or no upstream when one is needed; ``MockServerError`` for an invalid upstream;
    ///   ``MockServerError`` for an unreadable cassette.
    package init(
        names: [String], folder: URL, upstream: String?, mode: RecordMode, configuration: CassetteServer.Configuration,
        test: String?, environment: [String: String] = TestEnvironment.current
    ) throws {
        self.mode = mode
        var configuration = configuration
        // Random faults draw per test (see CassetteServer.Configuration.faultIdentity).
        configuration.faultIdentity = ([test ?? ""] + names).joined(separator: "\n")
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
            configuration.recording = RecordingOptions(upstream: upstream)
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
            // Redaction as `recorder capture` applies it: the default rules.
            configuration.recording = RecordingOptions(
                upstream: upstream, file: pending ?? target,
                name: old?.name ?? name.replacingOccurrences(of: "/", with: "-"))
        }
        self.configuration = configuration
        self.drift = drift
        warnings = try Self.ageWarnings(cassettes, environment: environment)
    }

    /// The error for a cassette `name` missing from `folder` where it is only replayed: the file, and the
    /// command that records it for the test `test`.
    package static func notFound(_ name: String, in folder: URL, test: String?) -> MockServerError {
        MockServerError(
            .cassetteNotFound,
            "no cassette \(name) at \(file(name, in: folder).path); record it with `\(RecordMode.recordVariable)=once swift test\(test.map { " --filter \($0)" } ?? "")` (from xcodebuild, `TEST_RUNNER_\(RecordMode.recordVariable)=once xcodebuild test ...`)"
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
    }

    /// Settles the recording once the server has stopped: saves what a failed save left in memory and, in
    /// ``RecordMode/all`` mode, gives the new recording the old cassette's hand-written parts and moves it
    /// over the old cassette when `passed` is `true`. A test that failed (`false`), or whose outcome the
    /// caller cannot see (`nil`), leaves the old cassette untouched and the new recording beside it; a test
    /// that recorded nothing leaves the old cassette as it is.
    /// A recording some requests of which were not recorded (the upstream could not be reached, or sent nothing
    /// for the timeout) is short of them: it is settled as a failed test's, and the test fails saying so.
    /// - Throws: ``MockServerError`` when saving or moving fails, or (in ``RecordMode/all`` mode) when the
    ///   new recording was kept aside, naming both files and, when `passed` is `nil`, how to accept it;
    ///   `upstreamUnreachable` or `upstreamTimedOut` when some requests were not recorded, naming the upstream;
    ///   `invalidConfiguration` when ``RecordMode/once`` recorded a missing cassette from no request at all.
    package func finish(_ server: CassetteServer, passed: Bool?) throws(MockServerError) {
        guard let file, let unrecorded = server.unrecordedRequestsError(file: file.path) else {
            try settle(server, passed: passed)
            if let file, mode == .once, !FileManager.default.fileExists(atPath: file.path) {
                // Left quiet, the test would pass now and fail offline for want of the cassette.
                throw MockServerError(
                    .invalidConfiguration,
                    "no request reached the server while \(RecordMode.recordVariable)=once recorded \(file.path), so there is nothing to replay offline; a test whose requests go elsewhere (the fault matrix starts servers of its own) does not belong under .mockServer or withMockServer"
                )
            }
            return
        }
        do {
            try settle(server, passed: false)
        } catch {
            throw MockServerError(unrecorded.code, "\(unrecorded.reason); and \(error.description)")
        }
        throw unrecorded
    }

    /// What ``finish(_:passed:)`` does with a recording, given the verdict.
    private func settle(_ server: CassetteServer, passed: Bool?) throws(MockServerError) {
        guard let file else { return }
        do {
            try server.saveRecording()
        } catch {
            throw MockServerError(.cannotSave, "the recording of \(file.path) was not saved: \(error.description)")
        }
        guard let pending, FileManager.default.fileExists(atPath: pending.path) else { return }
        if let old {
            do {
                var recorded = try Cassette.load(from: pending)
                recorded.note = old.note
                recorded.matching = old.matching
                recorded.errorTemplates = old.errorTemplates
                try recorded.save(to: pending, overwrite: true)
            } catch {
                throw MockServerError(
                    .cannotSave, "the new recording stays in \(pending.path) without the hand-written parts of \(file.path): \(error.description)")
            }
        }
        switch passed {
        case true? where CassetteTurns.shared.hasFailed(file):
            // The run is failing already; this passing test only says where its recording went.
            FileHandle.standardError.write(
                Data(
                    "note: a test sharing \(file.path) failed earlier in this run, so \(RecordMode.recordVariable)=all leaves it as it was before the run; this test's new recording is in \(pending.path)\n"
                        .utf8))
            return
        case true?:
            break
        case false?:
            guard let original = CassetteTurns.shared.noteFailed(file) else {
                throw MockServerError(
                    .cannotSave, "the test failed, so \(RecordMode.recordVariable)=all left \(file.path) as it was; the new recording is in \(pending.path)")
            }
            // An earlier test sharing the cassette replaced it, dropping what this one used: put it back.
            try AtomicFile.write(original, to: file, overwrite: true)
            throw MockServerError(
                .cannotSave,
                "the test failed, so \(RecordMode.recordVariable)=all put \(file.path) back as it was before this run (an earlier test sharing it had replaced it); the new recording is in \(pending.path)"
            )
        case nil:
            throw MockServerError(
                .cannotSave,
                "\(RecordMode.recordVariable)=all cannot tell here whether the test recorded a failure without throwing (such as a failed XCTAssert), so it left \(file.path) as it was; the new recording is in \(pending.path): if the test passed, accept it with `mv '\(pending.path)' '\(file.path)'`"
            )
        }
        let original = CassetteTurns.shared.wasReplaced(file) ? nil : try? Data(contentsOf: file)
        do {
            try AtomicFile.move(pending, over: file)
        } catch {
            throw MockServerError(.cannotSave, "the new recording stays in \(pending.path): \(error.description)")
        }
        CassetteTurns.shared.noteReplaced(file, original: original)
    }

    /// What a replay of this session's cassettes serves once `server`, this session's, has stopped: what it
    /// recorded (when it recorded), with the hand-written parts of the cassette it re-records, else the
    /// cassettes it replayed. A fault matrix runs its rows against these, so that rows never record.
    package func cassettes(after server: CassetteServer) -> [LoadedCassette] {
        guard var recorded = server.recordedCassette else { return cassettes }
        if let old {
            recorded.note = old.note
            recorded.matching = old.matching
            recorded.errorTemplates = old.errorTemplates
        }
        return [LoadedCassette(recorded)]
    }

    /// Starts a server in a slot of ``ServerSlots``, runs `body` with it (also reachable as
    /// ``CassetteServer/current``), stops it, settles the recording with ``finish(_:passed:)`` (`passed` judges
    /// `body`'s result, `nil` when it cannot tell; a throwing `body` failed, and where its recording went is
    /// written to standard error) and, in strict mode, throws when a request went unmatched.
    package func withServer<Result>(
        _ body: (CassetteServer) async throws -> Result,
        passed: (Result) -> Bool?
    ) async throws -> Result {
        try await ServerSlots.shared.holding { try await withServerInSlot(body, passed: passed) }
    }

    private func withServerInSlot<Result>(
        _ body: (CassetteServer) async throws -> Result,
        passed: (Result) -> Bool?
    ) async throws -> Result {
        let server = try CassetteServer(loaded: cassettes, configuration: configuration)
        try await server.start()
        let result: Result
        do {
            result = try await CassetteServer.$current.withValue(server) { try await body(server) }
        } catch {
            await server.stop()
            do {
                try finish(server, passed: false)
            } catch {
                // The test fails with its own error; this says where its recording went.
                FileHandle.standardError.write(Data("note: \(error.description)\n".utf8))
            }
            // A replayed failure names no cassette on the wire; this does.
            if let replayed = server.replayedFailures(test: nil) { FileHandle.standardError.write(Data("note: \(replayed)\n".utf8)) }
            throw error
        }
        await server.stop()
        try finish(server, passed: passed(result))
        if let drift {
            for warning in try await drift.verify() {
                FileHandle.standardError.write(Data("warning: \(warning)\n".utf8))
            }
        }
        if configuration.strict {
            try server.verifyNoUnmatchedRequests()
        }
        return result
    }

    /// Runs a test's body with its server, as the test helpers do: waits for the cassette's turn when the
    /// mode may write it (see ``CassetteTurns``), resolves the cassettes `names` (as ``init(names:folder:upstream:mode:configuration:test:environment:)``
    /// does), hands their age warnings to `warn`, then runs ``withServer(_:passed:)``.
    ///
    /// Faults never apply while recording, so that nothing injected is recorded. A test with faults in a
    /// mode that records runs its body twice: first against the upstream, recording, through `rehearse`,
    /// which runs it with its failures ignored (it expects the faults, which do not come); then against what
    /// was recorded, in replay mode with the faults, which is the test that counts (and, under
    /// ``RecordMode/all``, decides whether the new recording replaces the old cassette).
    /// - Throws: ``MockServerError`` (`invalidConfiguration`) for a test with faults in a mode that records
    ///   when there is no `rehearse` (the caller cannot ignore the failures of a first run).
    package static func run<Result>(
        names: [String], folder: URL, upstream: String?, mode: RecordMode,
        configuration: CassetteServer.Configuration, test: String?,
        environment: [String: String] = TestEnvironment.current,
        warn: ([String]) -> Void,
        rehearse: ((() async throws -> Void) async -> Void)? = nil,
        _ body: (CassetteSession, CassetteServer) async throws -> Result,
        passed: (Result) -> Bool?
    ) async throws -> Result {
        let turn = names.count == 1 ? try await CassetteTurns.shared.take(file(names[0], in: folder), mode: mode) : nil
        defer { if let turn { CassetteTurns.shared.give(turn) } }
        return try await CassetteTurns.$held.withValue(CassetteTurns.held.union(turn.map { [$0] } ?? [])) {
            try await runTaken(
                names: names, folder: folder, upstream: upstream, mode: mode, configuration: configuration, test: test,
                environment: environment, warn: warn, rehearse: rehearse, body, passed: passed)
        }
    }

    /// ``run(names:folder:upstream:mode:configuration:test:environment:warn:rehearse:_:passed:)`` once the turn is taken.
    private static func runTaken<Result>(
        names: [String], folder: URL, upstream: String?, mode: RecordMode,
        configuration: CassetteServer.Configuration, test: String?, environment: [String: String],
        warn: ([String]) -> Void, rehearse: ((() async throws -> Void) async -> Void)?,
        _ body: (CassetteSession, CassetteServer) async throws -> Result,
        passed: (Result) -> Bool?
    ) async throws -> Result {
        let session = try CassetteSession(
            names: names, folder: folder, upstream: upstream, mode: mode,
            configuration: configuration, test: test, environment: environment)
        warn(session.warnings)
        guard session.configuration.mode.records, let faults = try session.faultPlan() else {
            return try await session.withServer({ try await body(session, $0) }, passed: passed)
        }
        guard let rehearse else {
            throw MockServerError(
                .invalidConfiguration,
                "faults do not apply while \(RecordMode.recordVariable)=\(mode.rawValue) records \(names.joined(separator: ", ")), and this helper cannot run the test once to record and again with the faults; record the cassette with the tests that need its answers, or use the .mockServer trait or withReplay in Swift Testing"
            )
        }
        return try await session.rehearsed(faults: faults, rehearse: rehearse, body, passed: passed)
    }

    /// The fault plan the caller's configuration asks for, `nil` when none.
    private func faultPlan() throws(MockServerError) -> FaultPlan? {
        switch configuration.faults {
        case .none: nil
        case .plan(let plan): plan.rules.isEmpty ? nil : plan
        case .environment: try FaultPlan.fromEnvironment().flatMap { $0.rules.isEmpty ? nil : $0 }
        }
    }

    /// Records through a rehearsal of `body`, then runs `body` for real against the recording with `faults`
    /// (see ``run(names:folder:upstream:mode:configuration:test:environment:warn:rehearse:_:passed:)``).
    private func rehearsed<Result>(
        faults: FaultPlan, rehearse: @escaping (() async throws -> Void) async -> Void,
        _ body: (CassetteSession, CassetteServer) async throws -> Result,
        passed: (Result) -> Bool?
    ) async throws -> Result {
        try await ServerSlots.shared.holding { try await rehearsedInSlot(faults: faults, rehearse: rehearse, body, passed: passed) }
    }

    private func rehearsedInSlot<Result>(
        faults: FaultPlan, rehearse: @escaping (() async throws -> Void) async -> Void,
        _ body: (CassetteSession, CassetteServer) async throws -> Result,
        passed: (Result) -> Bool?
    ) async throws -> Result {
        let recorder = try CassetteServer(cassettes: [], configuration: configuration)
        try await recorder.start()
        await CassetteServer.$current.withValue(recorder) {
            await rehearse { _ = try await body(self, recorder) }
        }
        await recorder.stop()
        var replaying = configuration
        replaying.mode = .replay
        replaying.recording = nil
        replaying.faults = .plan(faults)
        let replay = CassetteSession(replaying: recorder.recordedCassette.map { [$0] } ?? [], configuration: replaying)
        let result: Result
        do {
            // Nothing is recorded here; the verdict settles the rehearsal's recording below.
            result = try await replay.withServer({ try await body(self, $0) }, passed: { _ in true })
        } catch {
            do {
                try finish(recorder, passed: false)
            } catch {
                FileHandle.standardError.write(Data("note: \(error.description)\n".utf8))
            }
            throw error
        }
        try finish(recorder, passed: passed(result))
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
