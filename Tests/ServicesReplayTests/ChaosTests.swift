import Foundation
@testable import MockServer
import ServiceKit
import Testing

/// Every service call, made again and again under a random fault plan: each must end in the value the
/// fault-free run returns or in a `WebServiceError`: never a crash, a hang, a wrong value or an untyped
/// error (`ServiceCall` only has room for a typed one), and never an error when no fault was injected.
///
/// CI runs this suite under several plans and seeds through `MOCKSERVER_FAULTS` and `MOCKSERVER_SEED`
/// (see `.ci/fault-injection`); without them it runs a small built-in plan. Settings: ``ChaosSettings``.
@Suite(.timeLimit(.minutes(10))) struct ChaosTests {
    @Test func everyCall_underARandomFaultPlan_endsInItsValueOrATypedError() async throws {
        // Given the plan from the environment (or the built-in one) and every call, paginated ones included
        let settings = try ChaosSettings()
        let calls = ServiceCall.everyService + ServiceCall.everyPagination

        // When each call is made `repeats` times in turn, every call on its own server and client
        let records = try await withThrowingTaskGroup(of: [ChaosRecord].self) { group in
            for (index, call) in calls.enumerated() {
                group.addTask { try await Self.repeatedly(call, faults: settings.faults(forCall: index), settings: settings) }
            }
            var records: [ChaosRecord] = []
            for try await some in group {
                records += some
            }
            return records.sorted { ($0.call, $0.repetition) < ($1.call, $1.repetition) }
        }

        // Then every call was made and checked (each value against the fault-free one, each error against the
        // faults injected), and the run reports its seed and what each fault led to
        #expect(records.count == calls.count * settings.repeats)
        let report = settings.heading(calls: calls.count) + "\n" + ChaosTable(records: records).text + "\n"
        print(report)
        if let file = settings.reportFile {
            try FileManager.default.append(report + "\n", to: file)
        }
        if let file = settings.logFile {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let lines = try records.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
            try FileManager.default.append(lines.map { $0 + "\n" }.joined(), to: file)
        }
    }

    /// Makes `call` `settings.repeats` times against one server under `faults` and one client, checking each
    /// outcome.
    static func repeatedly(_ call: ServiceCall, faults: CassetteServer.FaultSource, settings: ChaosSettings) async throws -> [ChaosRecord] {
        let reference = try await call.faultFreeOutcome()
        guard case .value = reference else {
            Issue.record("\(call.name) fails without faults: \(reference)")
            return []
        }
        return try await withReplay(call.cassette, faults: faults, client: ChaosSettings.clientOptions(for: call)) { replay in
            var records: [ChaosRecord] = []
            for repetition in 1...settings.repeats {
                let refusedBefore = replay.server.refusedConnections.count
                let journalBefore = replay.server.journal.entries.count
                let outcome = await call.perform(replay.client)
                let seen = FaultsSeen(
                    refused: Array(replay.server.refusedConnections.dropFirst(refusedBefore)),
                    journal: Array(replay.server.journal.entries.dropFirst(journalBefore)))
                let place = "\(call.name) #\(repetition) (seed \(settings.plan.seed), faults \(seen.rules))"
                switch outcome {
                case .value:
                    #expect(outcome.hasSameValue(as: reference), "\(place) returned a wrong value: \(outcome)")
                case .failure(let error):
                    #expect(!seen.rules.isEmpty, "\(place) failed with \(error.reason.caseName) though no fault was injected")
                }
                records.append(
                    ChaosRecord(
                        call: call.name, repetition: repetition, faults: seen.rules,
                        outcome: outcome.reason?.caseName ?? "ok"))
            }
            return records
        }
    }
}
