import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import ServiceKit
import ServiceKitTesting

extension FaultMatrix {
    /// Everything a run needs besides its case: where the cassette is, how to build the client, the call.
    struct Runner<Value: Equatable & Sendable>: Sendable {
        let subject: String
        let cassette: String
        let folder: URL
        /// The upstream a baseline that records forwards to; `nil` for the cassette's own.
        let upstream: String?
        /// The test's name, for the command that records a missing cassette.
        let test: String?
        let recordedAt: Date?
        let shape: Shape
        let margin: Duration
        let timing: Timing
        /// Builds each run's client for the run's server: a `URLSession` of its own per run, since FoundationNetworking
        /// serves all the transfers of one session on one thread, and rows run side by side.
        let makeClient: @Sendable (URL) -> WebServiceClient
        /// Sends the call; a stream also says how many events arrived before it ended.
        let call: @Sendable (WebServiceClient) async -> (result: Result<Value, any Error>, events: Int?)

        /// How long one row may take: every attempt timing out, plus the margin.
        var deadline: Duration {
            attemptsTimingOut + margin
        }

        /// How long the baseline may take: at least the default margin past every attempt timing out, whatever
        /// the margin, since a test suite starting its tests (or an upstream being recorded) may hold it longer
        /// than a row.
        var baselineDeadline: Duration {
            attemptsTimingOut + max(margin, FaultMatrix.defaultMargin)
        }

        private var attemptsTimingOut: Duration {
            .milliseconds(Int((shape.timeout * Double(shape.attempts) * 1000).rounded()))
        }

        /// The baseline, in the environment's record mode, then every case not skipped against what the
        /// baseline replayed or recorded, at most `parallel` at once; a failing baseline throws.
        ///
        /// The baseline takes the cassette's turn as a test would (see the article "Recording from your tests", in MockServerTesting):
        /// under `once` it records a missing cassette, under `new-episodes` it appends, under `all` it
        /// re-records, and the new recording replaces the old cassette only when every row passed. Rows only
        /// replay, so they never record. Under `drift` and `MOCKSERVER_LIVE=1` the baseline talks to the
        /// upstream and the rows do not run: faults apply only to replays.
        func run(_ cases: [Case], parallel: Int) async throws -> Report {
            let started = ContinuousClock.now
            let mode = try RecordMode.fromEnvironment()
            let file = folder.appendingPathComponent(cassette.hasSuffix(".json") ? cassette : cassette + ".json")
            if mode == .all && CassetteTurns.shared.hasFailed(file) {
                // One failing re-recording is enough: the rows of `cases(for:)` would each record again.
                throw FaultMatrixError(
                    "\(subject): a test re-recording \(file.path) failed earlier in this run, so \(RecordMode.recordVariable)=all does not record it again here; that test's failure says why"
                )
            }
            // A call that never asks its server is the matrix's own finding ("the fault never fired"), per row.
            var configuration = CassetteServer.Configuration(faults: .none)
            configuration.expectsRequests = false
            let baselineClock = clock()
            configuration.clock = timing == .virtual ? baselineClock : nil
            return try await CassetteSession.run(
                names: [cassette], folder: folder, upstream: upstream, mode: mode,
                configuration: configuration, test: test,
                warn: CassetteSession.printWarnings,
                { session, server in
                    let baseline = try await perform(on: server, clock: baselineClock, fault: nil, baseline: nil)
                    guard case .value = baseline.outcome.result, case .success(let value)? = baseline.value else {
                        var said = ""
                        if case .error(let error) = baseline.outcome.result, let message = error.errorDescription { said = " (\(message))" }
                        throw FaultMatrixError(
                            "\(subject): the call must succeed without faults before faults can tell anything, but it ended in \(baseline.outcome)\(said)")
                    }
                    if mode == .live || mode == .drift {
                        let variable = mode == .live ? "\(RecordMode.liveVariable)=1" : "\(RecordMode.recordVariable)=drift"
                        let sentence =
                            "faults apply only to replays, so under \(variable) the matrix ran only its baseline, against the upstream, and skipped its \(cases.count) rows"
                        FileHandle.standardError.write(Data("note: \(subject): \(sentence)\n".utf8))
                        return Report(subject: subject, rows: [], elapsed: ContinuousClock.now - started, notice: sentence)
                    }
                    // Stopped first, so that what it recorded is complete; the rows replay that.
                    await server.stop()
                    let replayed = session.cassettes(after: server)
                    var rows = [Report.Row?](repeating: nil, count: cases.count)
                    try await withThrowingTaskGroup(of: (Int, Report.Row).self) { group in
                        var next = 0
                        func addNext() {
                            guard next < cases.count else { return }
                            let index = next
                            next += 1
                            group.addTask { (index, try await row(for: cases[index], replaying: replayed, baseline: value)) }
                        }
                        for _ in 0..<max(1, parallel) { addNext() }
                        while let (index, row) = try await group.next() {
                            rows[index] = row
                            addNext()
                        }
                    }
                    return Report(subject: subject, rows: rows.compactMap { $0 }, elapsed: ContinuousClock.now - started)
                }, passed: { $0.failures.isEmpty })
        }

        private func row(for row: Case, replaying cassettes: [LoadedCassette], baseline: Value) async throws -> Report.Row {
            guard !row.isSkipped else {
                return Report.Row(case: row, got: "", passed: nil, sleeps: [], elapsed: .zero, outcome: nil)
            }
            let started = ContinuousClock.now
            var configuration = CassetteServer.Configuration(faults: .plan(try FaultPlan.parse(specs: row.fault)))
            // The row's outcome is judged on its own: a fault that ends the call before it is sent is a result.
            configuration.expectsRequests = false
            let clock = clock()
            configuration.clock = timing == .virtual ? clock : nil
            let performed = try await CassetteSession(replaying: cassettes, configuration: configuration).withServer(
                { server in
                    try await perform(on: server, clock: clock, fault: row.fault, baseline: baseline)
                }, passed: { _ in true })
            let passed = row.expectation.isMet(by: performed.outcome)
            let onClock = timing == .virtual && clock.realTimeAnswers == 0
            return Report.Row(
                case: row, got: performed.outcome.description, passed: passed, sleeps: performed.outcome.sleeps,
                elapsed: ContinuousClock.now - started, virtualElapsed: onClock ? clock.elapsed : nil, outcome: performed.outcome)
        }

        /// A run's clock, standing at the cassette's recording date.
        private func clock() -> VirtualClock {
            VirtualClock(now: recordedAt ?? Date())
        }

        /// One run against `server`: under `fault`, or without faults when `nil`.
        private func perform(
            on server: CassetteServer, clock: VirtualClock, fault: String?, baseline: Value?
        ) async throws
            -> (outcome: CallOutcome, value: Result<Value, any Error>?)
        {
            guard let baseURL = server.baseURL else { throw FaultMatrixError("the replay server for \(cassette) is not running") }
            // The closure's client, on the run's virtual clock: retries are recorded, never slept, and on the
            // virtual timing its timeout is the clock's too.
            let built = makeClient(baseURL)
            var settings = built.configuration
            settings.clock = clock
            let client = WebServiceClient(baseURL: built.baseURL, configuration: settings, transport: built.transport)
            let limit = baseline == nil ? baselineDeadline : deadline
            let ended = await Self.race(limit) { await call(client) }
            var outcome: CallOutcome
            switch ended {
            case nil:
                outcome = CallOutcome(result: .neverEnded(limit))
            case let (.success(value), events)?:
                let equal = baseline.map { $0 == value } ?? true
                outcome = CallOutcome(
                    result: .value(value), events: events, equalsBaseline: equal,
                    baseline: equal ? nil : baseline.map(CallOutcome.shortened))
            case let (.failure(error as WebServiceError), events)?:
                outcome = CallOutcome(result: .error(error), events: events)
            case let (.failure(error), events)?:
                outcome = CallOutcome(result: .foreignError("\(type(of: error)): \(error)"), events: events)
            }
            outcome.sleeps = clock.sleeps
            if fault != nil, !Self.injected(server) { outcome.result = .notInjected }
            return (outcome, ended?.result)
        }

        /// Whether the server injected a fault: a journal entry says so, or (for `refuse`, which acts before a
        /// request is read) no request reached it at all.
        private static func injected(_ server: CassetteServer) -> Bool {
            let entries = server.journal.entries
            if entries.contains(where: { $0.outcome.kind == .faultInjected }) { return true }
            return entries.isEmpty && server.faultPlan?.rules.contains(where: { $0.fault.actsOnAccept }) == true
        }

        /// `work`'s result, or `nil` when `deadline` passes first (`work` is then cancelled and awaited).
        private static func race<Result: Sendable>(_ deadline: Duration, _ work: @escaping @Sendable () async -> Result) async -> Result? {
            await withTaskGroup(of: Result?.self) { group in
                group.addTask { await work() }
                group.addTask {
                    try? await Task.sleep(for: deadline)
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
        }
    }
}
