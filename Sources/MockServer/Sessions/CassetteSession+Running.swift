import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// What a session does once it is resolved: runs a test's body with its server, then settles what the server
// recorded.
extension CassetteSession {
    /// Settles the recording once the server has stopped: saves what a failed save left in memory and, in
    /// ``RecordMode/all`` mode, gives the new recording the old cassette's hand-written parts and moves it
    /// over the old cassette when `passed` is `true`. A test that failed (`false`), or whose outcome the
    /// caller cannot see (`nil`), leaves the new recording beside the cassette, and the cassette as it was before
    /// the run (see ``CassetteTurns``); a test that recorded nothing leaves the old cassette as it is.
    /// A recording some requests of which were not recorded (the upstream could not be reached, or sent nothing
    /// for the timeout) is short of them: it is settled as a failed test's, and the test fails saying so.
    /// - Throws: ``MockServerError`` when saving or moving fails, or (in ``RecordMode/all`` mode) when the
    ///   new recording was kept aside, naming both files and, when `passed` is `nil`, how to accept it;
    ///   `upstreamUnreachable` or `upstreamTimedOut` when some requests were not recorded, naming the upstream;
    ///   `invalidConfiguration` when ``RecordMode/once`` recorded a missing cassette from no request at all.
    /// Whatever the verdict, the folders the recording created for the cassette (see ``createdFolders``) and
    /// left empty are removed.
    package func finish(_ server: CassetteServer, passed: Bool?) throws(MockServerError) {
        defer { removeEmptyCreatedFolders() }
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

    /// Removes each of ``createdFolders`` that is empty now, deepest first, so that a run that recorded nothing
    /// leaves the recordings folder as it found it. `rmdir(2)` removes a folder only while it is empty, so one
    /// that holds anything (a cassette, a recording kept aside, another test's file) stays, with every folder
    /// above it; a folder gone already (another test's session removed it) is passed over.
    private func removeEmptyCreatedFolders() {
        for folder in createdFolders {
            guard rmdir(folder.path) == 0 || errno == ENOENT else { return }
        }
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
        guard passed == true else { try keepAside(pending, of: file, passed: passed) }
        if CassetteTurns.shared.hasFailed(file) {
            // The run is failing already; this passing test only says where its recording went.
            FileHandle.standardError.write(
                Data(
                    "note: a test sharing \(file.path) failed earlier in this run, or could not tell whether it passed, so \(RecordMode.recordVariable)=all leaves it as it was before the run; this test's new recording is in \(pending.path)\n"
                        .utf8))
            return
        }
        // What the cassette was before this run, kept the first time the run replaces it, for a later failing test.
        var original: Data?
        if !CassetteTurns.shared.wasReplaced(file), FileManager.default.fileExists(atPath: file.path) {
            do {
                original = try Data(contentsOf: file)
            } catch {
                throw MockServerError(.cannotSave, "the new recording stays in \(pending.path): \(file.path) could not be read: \(error.localizedDescription)")
            }
        }
        do {
            try AtomicFile.move(pending, over: file)
        } catch {
            throw MockServerError(.cannotSave, "the new recording stays in \(pending.path): \(error.description)")
        }
        CassetteTurns.shared.noteReplaced(file, original: original)
    }

    /// Leaves the new recording `pending` beside `file` for a test that failed (`passed` is `false`) or whose
    /// outcome its helper cannot see (`nil`), and puts `file` back as it was before the run when an earlier test
    /// sharing it replaced it (removing it when the run created it), so that it never holds a recording that
    /// dropped what this test used.
    /// - Throws: ``MockServerError`` (`cannotSave`) always: the sentence says what became of both files.
    private func keepAside(_ pending: URL, of file: URL, passed: Bool?) throws(MockServerError) -> Never {
        let variable = RecordMode.recordVariable
        let why =
            passed == nil
            ? "\(variable)=all cannot tell here whether the test recorded a failure without throwing (such as a failed XCTAssert), so it"
            : "the test failed, so \(variable)=all"
        let accept = passed == nil ? ": if the test passed, accept it with `mv '\(pending.path)' '\(file.path)'`" : ""
        let done: String
        switch CassetteTurns.shared.noteFailed(file) {
        case .untouched:
            done = "left \(file.path) as it was"
        case .held(let original):
            try AtomicFile.write(original, to: file, overwrite: true)
            done = "put \(file.path) back as it was before this run (an earlier test sharing it had replaced it)"
        case .absent:
            do {
                try FileManager.default.removeItem(at: file)
            } catch {
                throw MockServerError(
                    .cannotSave, "\(why) was to remove \(file.path), which an earlier test of this run created, but could not: \(error.localizedDescription)")
            }
            done = "removed \(file.path), which did not exist before this run (an earlier test sharing it had recorded it)"
        }
        throw MockServerError(.cannotSave, "\(why) \(done); the new recording is in \(pending.path)\(accept)")
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
        // Read before stopping, which forgets it; connections count even when no request on them was journaled.
        let connections = server.acceptedConnectionCount
        await server.stop()
        let verdict = passed(result)
        try finish(server, passed: verdict)
        // Only for named cassettes, a test helper's replay of a test's recordings (init(names:...) gives the
        // configuration its recordings folder), and only for a test not failing already.
        if configuration.expectsRequests, !configuration.mode.forwards, configuration.recordingsFolder != nil, verdict != false,
            let silence = server.noRequestError(acceptedConnections: connections)
        {
            throw silence
        }
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
        try refuseFaultsGoingLive(configuration.faults, mode: mode)
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

    /// Ends a test that names faults (a plan or specs given to the helper, not the environment's) before it talks
    /// to the live API under ``RecordMode/live`` or ``RecordMode/drift``: faults apply only to replays, so it would
    /// run without them and fail with plain expectation failures, or pass proving nothing. A Swift Testing helper
    /// skips it through ``skipTest``, with the sentence; elsewhere it throws the sentence.
    private static func refuseFaultsGoingLive(_ faults: CassetteServer.FaultSource, mode: RecordMode) throws {
        guard mode == .live || mode == .drift else { return }
        let named: FaultPlan?
        switch faults {
        case .plan, .specs: named = try faults.plan()
        case .none, .environment: named = nil
        }
        guard let named, !named.rules.isEmpty else { return }
        let variable = mode == .live ? "\(RecordMode.liveVariable)=1" : "\(RecordMode.recordVariable)=drift"
        let sentence =
            "faults apply only to replays, so under \(variable) this test's faults (\(named.rules.map(\.description).joined(separator: "; "))) cannot apply against the live API"
        if let skipTest { try skipTest(sentence + "; the test is cancelled, not run") }
        throw MockServerError(
            .invalidConfiguration, sentence + "; skip the test in this mode (in XCTest, with XCTSkipIf on \(RecordMode.recordVariable))")
    }

    /// How a test framework's helper skips the running test with a sentence (Swift Testing's `Test.cancel`); `nil`
    /// where none can (MockServer links no test framework). The `.mockServer` trait and `withReplay` set it.
    @TaskLocal package static var skipTest: (@Sendable (String) throws -> Void)?

    /// The fault plan the caller's configuration asks for, `nil` when none.
    private func faultPlan() throws(MockServerError) -> FaultPlan? {
        try configuration.faults.plan().flatMap { $0.rules.isEmpty ? nil : $0 }
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
}
