import Foundation
@testable import MockServer
import MockServerTesting
import ServiceKit
import ServiceReplayShared
import ServiceReplayTesting
import Testing

/// Every entry point in every record mode, from every starting point: the README's table "Every entry point
/// in every mode", walked against a small upstream on loopback. Each cell runs in a folder of its own against
/// an upstream of its own, and its expected outcome is ``expected(_:_:_:)``: whether the test passes, whether
/// the upstream was asked, what the cassette holds afterwards, and the sentence a failure gives.
@Suite struct RecordModeTableTests {
    /// `GET /item` → the item's `id`.
    struct ItemService: WebService {
        var endpoint: String { "/item" }
        func response(from json: JSON) throws -> Int { try json["id"].required.int }
    }

    /// What the upstream answers: first `name` as a string; after its change, as a number (a breaking change
    /// the service does not read, so only drift notices it).
    static let answer: CassetteJSON = ["id": 1, "name": "a"]
    static let changedAnswer: CassetteJSON = ["id": 1, "name": 7]

    enum Entry: String, CaseIterable, Sendable {
        case trait, withMockServer, withReplay, withReplayOutsideSwiftTesting = "withReplay (XCTest)"
        case matrixService = "FaultMatrix.run (service)", matrixCall = "FaultMatrix.run (call)", matrixRow = "FaultMatrix.cases row"

        /// Whether the entry point cannot see a failure that does not throw, so that `all` cannot tell whether
        /// the test passed (see `withMockServer`'s documentation).
        var isBlind: Bool { self == .withMockServer || self == .withReplayOutsideSwiftTesting }
        var isMatrix: Bool { self == .matrixService || self == .matrixCall || self == .matrixRow }
    }

    enum Mode: String, CaseIterable, Sendable {
        case none, once, newEpisodes = "new-episodes", all, drift, live

        var environment: [String: String] {
            self == .live ? [RecordMode.liveVariable: "1"] : [RecordMode.recordVariable: rawValue]
        }
    }

    enum Start: String, CaseIterable, Sendable {
        /// No cassette; the upstream answers.
        case missing
        /// A cassette of what the upstream answers.
        case current
        /// A cassette of what the upstream answered before its change.
        case changed
        /// No cassette, and nothing listens where the upstream was.
        case missingOffline = "missing, offline"
        /// A cassette, and nothing listens where the upstream was.
        case currentOffline = "current, offline"

        var hasCassette: Bool { self != .missing && self != .missingOffline }
        var isOffline: Bool { self == .missingOffline || self == .currentOffline }
    }

    /// What the cassette file holds after the test.
    enum CassetteAfter: Equatable, CustomStringConvertible {
        case absent, unchanged
        /// The upstream's answer, as recorded now.
        case recorded

        var description: String {
            switch self {
            case .absent: "no cassette"
            case .unchanged: "cassette unchanged"
            case .recorded: "cassette recorded from the upstream"
            }
        }
    }

    struct Outcome: Equatable, CustomStringConvertible {
        var passes: Bool
        var asksUpstream: Bool
        var cassette: CassetteAfter
        /// Part of the failure's sentence; `nil` for a test that passes.
        var says: String?
        /// Whether a `.recording-*` file is left beside the cassette.
        var leavesRecordingAside = false

        var description: String {
            [passes ? "passes" : "fails", asksUpstream ? "asks the upstream" : "never asks the upstream", "\(cassette)"]
                .joined(separator: ", ") + (leavesRecordingAside ? ", recording kept aside" : "") + (says.map { ", saying “\($0)”" } ?? "")
        }
    }

    /// The table: what a user of `entry` expects in `mode` from `start`.
    static func expected(_ entry: Entry, _ mode: Mode, _ start: Start) -> Outcome {
        let notFound = "no cassette item at"
        let unreachable = "could not be reached"
        let kept: CassetteAfter = start.hasCassette ? .unchanged : .absent
        switch mode {
        case .none:
            return start.hasCassette
                ? Outcome(passes: true, asksUpstream: false, cassette: .unchanged)
                : Outcome(passes: false, asksUpstream: false, cassette: .absent, says: notFound)
        case .once, .newEpisodes:
            if start.hasCassette { return Outcome(passes: true, asksUpstream: false, cassette: .unchanged) }
            return start.isOffline
                ? Outcome(passes: false, asksUpstream: false, cassette: .absent, says: unreachable)
                : Outcome(passes: true, asksUpstream: true, cassette: .recorded)
        case .all:
            if start.isOffline { return Outcome(passes: false, asksUpstream: false, cassette: kept, says: unreachable) }
            if entry.isBlind {
                return Outcome(
                    passes: false, asksUpstream: true, cassette: kept, says: "cannot tell here whether the test recorded a failure",
                    leavesRecordingAside: true)
            }
            return Outcome(passes: true, asksUpstream: true, cassette: .recorded)
        case .drift, .live:
            if start.isOffline { return Outcome(passes: false, asksUpstream: false, cassette: kept, says: unreachable) }
            if mode == .drift && start == .changed {
                return Outcome(passes: false, asksUpstream: true, cassette: .unchanged, says: "$.name: string → number (type changed)")
            }
            return Outcome(passes: true, asksUpstream: true, cassette: kept)
        }
    }

    /// Runs one cell and tells what happened.
    static func observe(_ entry: Entry, _ mode: Mode, _ start: Start) async throws -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mode-table-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("item.json")
        if start.hasCassette {
            var cassette = Cassette(name: "item", interactions: [.stub("GET", "/item", json: start == .changed ? answer : changedAnswer)])
            cassette.recordedAt = Date(timeIntervalSince1970: 1_700_000_000)
            try cassette.save(to: file)
        }
        let before = try? Data(contentsOf: file)
        // The upstream answers `changedAnswer`, except for a cassette recorded before its change.
        let live = Cassette(name: "upstream", interactions: [.stub("GET", "/item", json: changedAnswer)])
        return try await withMockServer(cassettes: [live], configuration: .init(faults: .none)) { upstream in
            let address = start.isOffline ? "http://127.0.0.1:1" : try upstream.baseURL.orThrow("no upstream").absoluteString
            let (passes, messages) = await TestEnvironment.$override.withValue(mode.environment) {
                await run(entry, folder: folder, upstream: address)
            }
            let after = try? Data(contentsOf: file)
            let cassette: CassetteAfter
            if after == nil {
                cassette = .absent
            } else if after == before {
                cassette = .unchanged
            } else {
                let interactions = try Cassette.load(from: file).interactions
                let recordsUpstream =
                    interactions.count == 1
                    && interactions[0].response?.body.data == Interaction.stub("GET", "/item", json: changedAnswer).response?.body.data
                cassette = recordsUpstream ? .recorded : .unchanged
                #expect(recordsUpstream, "\(entry.rawValue), \(mode.rawValue), \(start.rawValue): the cassette changed, but not to what the upstream answers")
            }
            let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path).contains { $0.contains(".recording-") }
            let said = messages.joined(separator: "\n")
            let wanted = expected(entry, mode, start).says
            return Outcome(
                passes: passes, asksUpstream: !upstream.journal.entries.isEmpty && !start.isOffline, cassette: cassette,
                says: passes ? nil : (wanted.map { said.contains($0) } == true ? wanted : said),
                leavesRecordingAside: aside)
        }
    }

    /// Runs the test `entry` stands for, calling `ItemService` once through the entry point, and returns
    /// whether it passed and the sentences of its failures.
    static func run(_ entry: Entry, folder: URL, upstream: String) async -> (passed: Bool, messages: [String]) {
        // Only the whole matrix meets a stall, which the client's timeout ends; every other call is answered, and a
        // loaded machine must not time it out.
        let timeout = entry == .matrixCall ? ReplayTimeout.stall : ReplayTimeout.answer
        let client: @Sendable (URL) -> WebServiceClient = {
            WebServiceClient(baseURL: $0, configuration: .init(timeout: timeout), transport: URLSessionTransport())
        }
        @Sendable func call(_ client: WebServiceClient) async throws {
            let id = try await client.send(ItemService())
            guard id == 1 else { throw CellFailure("got item \(id)") }
        }
        @Sendable func matrix() async throws {
            let report: FaultMatrix.Report
            switch entry {
            case .matrixService:
                let row = try FaultMatrix.cases(for: ItemService.self, replaying: "item", in: folder, client: client).first { $0.fault == "status=503" }
                report = try await FaultMatrix.run(ItemService(), replaying: "item", in: folder, upstream: upstream, client: client, only: row)
            case .matrixCall:
                report = try await FaultMatrix.run("ItemRepository.load", replaying: "item", in: folder, upstream: upstream, client: client) { client in
                    try await client.send(ItemService())
                }
            default:
                let row = try FaultMatrix.cases(for: ItemService.self, replaying: "item", in: folder, client: client).first
                report = try await FaultMatrix.run(ItemService(), replaying: "item", in: folder, upstream: upstream, client: client, only: row)
            }
            guard report.failures.isEmpty else { throw CellFailure("\(report)") }
        }
        let messages = Lock<[String]>([])
        let thrown = Lock<(any Error)?>(nil)
        let body: @Sendable () async throws -> Void = {
            switch entry {
            case .trait:
                let trait = MockServerTrait.mockServer("item", upstream: upstream, in: folder, faults: .none)
                try await trait.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
                    let server = try #require(CassetteServer.current)
                    try await call(client(try server.baseURL.orThrow("no base URL")))
                }
            case .withMockServer:
                try await withMockServer(replaying: "item", in: folder, upstream: upstream, configuration: .init(faults: .none)) { server in
                    try await call(client(try server.baseURL.orThrow("no base URL")))
                }
            case .withReplay:
                try await withReplay("item", in: folder, upstream: upstream, configuration: .init(faults: .none), client: .init(timeout: ReplayTimeout.answer))
                {
                    try await call($0.client)
                }
            case .withReplayOutsideSwiftTesting:
                // Outside the running test's task, where `Test.current` is nil, as in an XCTest test.
                let environment = TestEnvironment.current
                try await Task.detached {
                    try await TestEnvironment.$override.withValue(environment) {
                        try await withReplay(
                            "item", in: folder, upstream: upstream, configuration: .init(faults: .none), client: .init(timeout: ReplayTimeout.answer)
                        ) {
                            try await call($0.client)
                        }
                    }
                }.value
            case .matrixService, .matrixCall, .matrixRow:
                try await matrix()
            }
        }
        await withKnownIssue(isIntermittent: true) {
            do {
                try await body()
            } catch {
                thrown.withLock { $0 = error }
            }
        } matching: { issue in
            messages.withLock { $0.append(String(describing: issue)) }
            return true
        }
        if let error = thrown.withLock({ $0 }) {
            messages.withLock { $0.append(String(describing: error)) }
        }
        let all = messages.withLock { $0 }
        return (all.isEmpty, all)
    }

    struct CellFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test func matrixRowsUnderAll_recordOnce_whenTheUpstreamBreaksTheService() async throws {
        // GIVEN a current cassette, and an upstream whose answer the service can no longer read
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mode-table-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("item.json")
        try Cassette(name: "item", interactions: [.stub("GET", "/item", json: Self.answer)]).save(to: file)
        let before = try Data(contentsOf: file)
        let broken = Cassette(name: "upstream", interactions: [.stub("GET", "/item", json: ["id": "one"])])
        let client: @Sendable (URL) -> WebServiceClient = { WebServiceClient(baseURL: $0, configuration: .init(timeout: ReplayTimeout.answer)) }
        try await withMockServer(cassettes: [broken], configuration: .init(faults: .none)) { upstream in
            let address = try upstream.baseURL.orThrow("no upstream").absoluteString
            try await TestEnvironment.$override.withValue([RecordMode.recordVariable: "all"]) {
                // WHEN three rows of `cases(for:)` run one after another under `all`
                let rows = try FaultMatrix.cases(for: ItemService.self, replaying: "item", in: folder, client: client).prefix(3)
                var errors: [String] = []
                for row in rows {
                    do {
                        _ = try await FaultMatrix.run(ItemService(), replaying: "item", in: folder, upstream: address, client: client, only: row)
                    } catch {
                        errors.append("\(error)")
                    }
                }
                // THEN the first fails on the baseline, the others say so without recording again
                #expect(errors.count == 3)
                #expect(errors.first?.contains("the call must succeed without faults") == true, "\(errors)")
                #expect(
                    errors.dropFirst().allSatisfy { $0.contains("failed earlier in this run, so MOCKSERVER_RECORD=all does not record it again here") },
                    "\(errors)")
            }
            #expect(upstream.journal.entries.count == 1)
        }
        // AND the cassette is as it was, with one recording kept aside, not one per row
        #expect(try Data(contentsOf: file) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".recording-") }.count == 1)
    }

    @Test func everyEntryPoint_inEveryMode_fromEveryStart_doesWhatTheTableSays() async throws {
        var cells: [(Entry, Mode, Start)] = []
        for entry in Entry.allCases {
            for mode in Mode.allCases {
                for start in Start.allCases { cells.append((entry, mode, start)) }
            }
        }
        var mismatches: [String] = []
        try await withThrowingTaskGroup(of: (String, Outcome, Outcome).self) { group in
            var next = 0
            func addNext() {
                guard next < cells.count else { return }
                let (entry, mode, start) = cells[next]
                next += 1
                group.addTask {
                    ("\(entry.rawValue) | \(mode.rawValue) | \(start.rawValue)", Self.expected(entry, mode, start), try await Self.observe(entry, mode, start))
                }
            }
            for _ in 0..<6 { addNext() }
            while let (cell, want, got) = try await group.next() {
                if want != got { mismatches.append("\(cell): expected \(want); got \(got)") }
                addNext()
            }
        }
        #expect(mismatches.isEmpty, Comment(rawValue: "\(mismatches.count) of \(cells.count) cells differ:\n" + mismatches.sorted().joined(separator: "\n")))
    }
}
