import Foundation
import Synchronization

/// Every request a server received, with its time and outcome, for tests to query and assert on.
///
/// Thread-safe: servers record from several threads at once. Memory is bounded: beyond ``capacity`` entries,
/// or ``bodyBudget`` bytes of request bodies, the oldest entries are dropped (``droppedCount`` says how many,
/// and count assertions mention it). Which interactions were used is kept apart and never dropped, so
/// ``verifyEveryInteractionUsed(in:)`` stays exact.
public final class Journal: Sendable {
    /// The default number of entries kept.
    public static let defaultCapacity = 100_000
    /// The default total size of request bodies kept, 64 MiB.
    public static let defaultBodyBudget = 64 << 20

    struct UsedKey: Hashable {
        let cassette: Int
        let index: Int
    }

    private struct Storage {
        /// Kept entries, oldest first, from position `start` (earlier positions are dropped, compacted lazily).
        var entries: [JournalEntry] = []
        var start = 0
        var bodyBytes = 0
        var recorded = 0
        var used: Set<UsedKey> = []
    }

    /// The most entries kept at once.
    public let capacity: Int
    /// The most request-body bytes kept at once (the newest entry is kept whatever its size).
    public let bodyBudget: Int
    private let storage = Mutex(Storage())

    /// Creates an empty journal keeping at most `capacity` entries (at least 1) and `bodyBudget` body bytes.
    public init(capacity: Int = Journal.defaultCapacity, bodyBudget: Int = Journal.defaultBodyBudget) {
        self.capacity = max(1, capacity)
        self.bodyBudget = max(0, bodyBudget)
    }

    /// Records `request` with its outcome and returns the entry; `time` defaults to now.
    @discardableResult
    public func record(_ request: HTTPRequest, outcome: JournalOutcome, at time: Date = Date()) -> JournalEntry {
        storage.withLock { storage in
            let entry = JournalEntry(sequence: storage.recorded, time: time, request: request, outcome: outcome)
            storage.recorded += 1
            if let interaction = outcome.interaction, outcome.kind == .matched || outcome.kind == .faultInjected {
                storage.used.insert(UsedKey(cassette: interaction.cassetteIndex, index: interaction.index))
            }
            storage.entries.append(entry)
            storage.bodyBytes += request.body.count
            while storage.entries.count - storage.start > capacity
                || (storage.bodyBytes > bodyBudget && storage.entries.count - storage.start > 1) {
                storage.bodyBytes -= storage.entries[storage.start].request.body.count
                storage.start += 1
            }
            // Compact once half the array is dropped entries: amortized O(1) per record.
            if storage.start > 0 && storage.start * 2 >= storage.entries.count {
                storage.entries.removeFirst(storage.start)
                storage.start = 0
            }
            return entry
        }
    }

    /// Records `request` with the outcome of a replay decision and returns the entry; `time` defaults to now.
    @discardableResult
    public func record(_ request: HTTPRequest, decision: ReplayDecision, at time: Date = Date()) -> JournalEntry {
        record(request, outcome: JournalOutcome(decision), at: time)
    }

    /// The kept entries, oldest first.
    public var entries: [JournalEntry] {
        storage.withLock { Array($0.entries[$0.start...]) }
    }

    /// How many requests were recorded since creation or ``reset()``, dropped ones included.
    public var recordedCount: Int {
        storage.withLock { $0.recorded }
    }

    /// How many of the oldest entries were dropped to stay within ``capacity`` and ``bodyBudget``.
    public var droppedCount: Int {
        storage.withLock { $0.recorded - ($0.entries.count - $0.start) }
    }

    /// The kept entries whose request matches `pattern`, oldest first.
    public func entries(matching pattern: RequestPattern) -> [JournalEntry] {
        entries.filter { pattern.matches($0.request) }
    }

    /// How many kept entries match `pattern`.
    public func count(of pattern: RequestPattern) -> Int {
        entries.reduce(0) { $0 + (pattern.matches($1.request) ? 1 : 0) }
    }

    /// The interactions of `cassettes` (given in the engine's order, ``ReplayEngine/cassettes``) that no
    /// recorded request matched, in cassette then interaction order.
    public func unusedInteractions(in cassettes: [Cassette]) -> [InteractionReference] {
        let used = storage.withLock { $0.used }
        var unused: [InteractionReference] = []
        for (ordinal, cassette) in cassettes.enumerated() {
            for (index, interaction) in cassette.interactions.enumerated() where !used.contains(UsedKey(cassette: ordinal, index: index)) {
                unused.append(InteractionReference(cassette: cassette.name, cassetteIndex: ordinal, index: index,
                                                   method: interaction.request.method, target: interaction.request.target))
            }
        }
        return unused
    }

    /// The interactions of an engine's prepared cassettes that no recorded request matched, in cassette then
    /// interaction order; the same as ``unusedInteractions(in:)`` without rebuilding the cassettes.
    func unusedInteractions(in cassettes: [PreparedCassette]) -> [InteractionReference] {
        let used = storage.withLock { $0.used }
        var unused: [InteractionReference] = []
        for cassette in cassettes {
            for index in 0..<cassette.count where !used.contains(UsedKey(cassette: cassette.ordinal, index: index)) {
                unused.append(cassette.reference(index))
            }
        }
        return unused
    }

    /// Forgets every entry and every used interaction.
    public func reset() {
        storage.withLock { $0 = Storage() }
    }
}
