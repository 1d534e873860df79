import Foundation
@testable import MockServer
import ServiceReplayShared
import Testing

/// ``CassetteTurns`` on its own: which modes take a turn on a cassette file, that a turn is held by one test at
/// a time and handed on in order, and what the `all` bookkeeping remembers. Files in a fresh folder each, so no
/// other test shares a key.
@Suite struct CassetteTurnsTests {
    static func withFile<T>(_ body: (URL) async throws -> T) async throws -> T {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder.appendingPathComponent("things.json"))
    }

    @Test(arguments: [RecordMode.none, .live, .drift])
    func modesThatOnlyRead_takeNoTurn(mode: RecordMode) async throws {
        try await Self.withFile { file in
            let turn = try await CassetteTurns().take(file, mode: mode)
            #expect(turn == nil)
        }
    }

    @Test(arguments: [RecordMode.newEpisodes, .all])
    func modesThatWrite_takeATurn_whetherTheFileExistsOrNot(mode: RecordMode) async throws {
        try await Self.withFile { file in
            let turns = CassetteTurns()
            let first = try #require(try await turns.take(file, mode: mode))
            #expect(first == file.standardizedFileURL.path)
            turns.give(first)
            try Data("{}".utf8).write(to: file)
            let second = try #require(try await turns.take(file, mode: mode))
            turns.give(second)
        }
    }

    @Test func once_takesATurnOnAMissingFile_andKeepsTakingItOnceClaimed_butNotOnAFileThatWasThere() async throws {
        try await Self.withFile { file in
            let turns = CassetteTurns()
            // A missing file: the first test records it, so it takes the turn and claims the file
            let first = try #require(try await turns.take(file, mode: .once))
            #expect(turns.wasClaimed(file))
            try Data("{}".utf8).write(to: file)
            turns.give(first)
            // Written by this process: later tests of it append, so they take the turn too
            let second = try #require(try await turns.take(file, mode: .once))
            turns.give(second)
            // The same file in a process that found it on disk: replayed only, no turn
            let fresh = CassetteTurns()
            let none = try await fresh.take(file, mode: .once)
            #expect(none == nil)
            #expect(!fresh.wasClaimed(file))
        }
    }

    @Test func aTurn_isHeldByOneTestAtATime() async throws {
        try await Self.withFile { file in
            let turns = CassetteTurns()
            let log = Lock<[String]>([])
            // GIVEN one test holding the turn, and three more asking for it meanwhile
            let key = try #require(try await turns.take(file, mode: .newEpisodes))
            let waiters = (1...3).map { name in
                Task {
                    let key = try #require(try await turns.take(file, mode: .newEpisodes))
                    log.withLock { $0.append("\(name) takes") }
                    // Holding the turn a while, so that a second holder would show between these two lines
                    for _ in 0..<50 { await Task.yield() }
                    log.withLock { $0.append("\(name) gives") }
                    turns.give(key)
                }
            }
            for _ in 0..<50 { await Task.yield() }
            log.withLock { $0.append("0 gives") }
            turns.give(key)
            for waiter in waiters { try await waiter.value }
            // THEN nobody took it before the first gave it back, and each held it alone
            let entries = log.withLock { $0 }
            #expect(entries.first == "0 gives")
            let pairs = stride(from: 1, to: entries.count, by: 2).map { Array(entries[$0..<min($0 + 2, entries.count)]) }
            #expect(pairs.count == 3)
            for pair in pairs {
                #expect(
                    pair.count == 2 && pair[0].hasSuffix(" takes") && pair[1] == pair[0].replacingOccurrences(of: "takes", with: "gives"),
                    "\(entries)")
            }
            // AND once nobody holds it, the next test takes it at once
            let again = try #require(try await turns.take(file, mode: .newEpisodes))
            turns.give(again)
        }
    }

    @Test func aTurnTheTaskHoldsAlready_failsAtOnce() async throws {
        try await Self.withFile { file in
            let error = await #expect(throws: MockServerError.self) {
                try await CassetteTurns.$held.withValue([file.standardizedFileURL.path]) {
                    _ = try await CassetteTurns().take(file, mode: .newEpisodes)
                }
            }
            #expect(error?.code == .invalidConfiguration)
        }
    }

    @Test func all_remembersTheFirstOriginal_andWhichFilesFailed() async throws {
        try await Self.withFile { file in
            let turns = CassetteTurns()
            #expect(!turns.wasReplaced(file))
            #expect(turns.noteFailed(file) == .untouched)
            #expect(turns.hasFailed(file))
            let other = file.deletingLastPathComponent().appendingPathComponent("other.json")
            #expect(!turns.hasFailed(other))
            turns.noteReplaced(other, original: Data("before".utf8))
            turns.noteReplaced(other, original: Data("first recording".utf8))
            #expect(turns.wasReplaced(other))
            #expect(turns.noteFailed(other) == .held(Data("before".utf8)))
            let created = file.deletingLastPathComponent().appendingPathComponent("created.json")
            turns.noteReplaced(created, original: nil)
            turns.noteReplaced(created, original: Data("first recording".utf8))
            #expect(turns.noteFailed(created) == .absent)
        }
    }
}
