import Foundation
import ServiceReplayShared

/// Every request a server received, with its time and outcome, for tests to query and assert on.
///
/// Thread-safe: servers append from several threads at once. Memory is bounded: beyond ``capacity`` entries,
/// or ``bodyBudget`` bytes of request bodies, the oldest entries are dropped (``droppedCount`` says how many,
/// and count assertions mention it); an entry costs about 200 bytes besides the request it keeps. Which
/// interactions were used is kept apart and never dropped, so ``CassetteServer/verifyEveryInteractionUsed()`` stays exact.
public final class Journal: Sendable {
    /// The default number of entries kept.
    public static let defaultCapacity = 100_000
    /// The default total size of request bodies kept, 64 MiB.
    public static let defaultBodyBudget = 64 << 20

    private struct Storage {
        var kept = JournalRing()
        var bodyBytes = 0
        var recorded = 0
        var used = UsedInteractions()
    }

    /// The most entries kept at once.
    public let capacity: Int
    /// The most request-body bytes kept at once (the newest entry is kept whatever its size).
    public let bodyBudget: Int
    private let storage = Lock(Storage())

    /// Creates an empty journal keeping at most `capacity` entries (at least 1) and `bodyBudget` body bytes.
    public init(capacity: Int = Journal.defaultCapacity, bodyBudget: Int = Journal.defaultBodyBudget) {
        self.capacity = max(1, capacity)
        self.bodyBudget = max(0, bodyBudget)
    }

    /// Adds `request` with its outcome as the newest entry and returns it; `time` defaults to now.
    @discardableResult
    public func append(_ request: HTTPRequest, outcome: JournalOutcome, at time: Date = Date()) -> JournalEntry {
        let interaction = outcome.kind == .matched || outcome.kind == .faultInjected ? outcome.interaction : nil
        let sequence = store(request, .other(JournalRecord.Box(outcome)), used: interaction, at: time)
        return JournalEntry(sequence: sequence, time: time, request: request, outcome: outcome)
    }

    /// Adds `request`, answered as `matched` recorded it, without building the public entry (what a server does
    /// for most requests: see `append(_:answer:at:)`); returns the entry's sequence number.
    func append(_ request: HTTPRequest, matched: MatchedInteraction, at time: Date) -> Int {
        store(request, .matched(matched), used: matched.reference, at: time)
    }

    /// Adds `request` with `outcome`, counting `used` as used, without building the public entry; returns the
    /// entry's sequence number.
    func append(_ request: HTTPRequest, outcome: JournalOutcome, used: InteractionReference?, at time: Date) -> Int {
        store(request, .other(JournalRecord.Box(outcome)), used: used, at: time)
    }

    /// Keeps a record within the limits; returns its sequence number.
    private func store(_ request: HTTPRequest, _ outcome: JournalRecord.Stored, used: InteractionReference?, at time: Date) -> Int {
        let used = used.map { (cassette: $0.cassetteIndex, index: $0.index) }
        return storage.withLock { storage in
            let sequence = storage.recorded
            storage.recorded += 1
            if let used {
                storage.used.insert(cassette: used.cassette, index: used.index)
            }
            storage.bodyBytes += request.body.count
            let record = JournalRecord(sequence: sequence, time: time, request: request, outcome: outcome)
            if let dropped = storage.kept.append(record, capacity: capacity) {
                storage.bodyBytes -= dropped.request.body.count
            }
            while storage.bodyBytes > bodyBudget && storage.kept.count > 1 {
                storage.bodyBytes -= storage.kept.removeOldest().request.body.count
            }
            return sequence
        }
    }

    /// The kept entries, oldest first.
    public var entries: [JournalEntry] {
        storage.withLock { $0.kept.records }.map(\.entry)
    }

    /// How many requests were appended since creation or ``reset()``, dropped ones included.
    public var recordedCount: Int {
        storage.withLock { $0.recorded }
    }

    /// How many of the oldest entries were dropped to stay within ``capacity`` and ``bodyBudget``.
    public var droppedCount: Int {
        storage.withLock { $0.recorded - $0.kept.count }
    }

    /// The kept entries whose request matches `pattern`, oldest first.
    public func entries(matching pattern: RequestPattern) -> [JournalEntry] {
        entries.filter { pattern.matches($0.request) }
    }

    /// How many kept entries match `pattern`.
    public func count(of pattern: RequestPattern) -> Int {
        entries.reduce(0) { $0 + (pattern.matches($1.request) ? 1 : 0) }
    }

    /// The interactions among `interactions` (an engine's, ``ReplayEngine/interactions``) that no journaled
    /// request used, in the order given.
    func unusedInteractions(among interactions: [InteractionReference]) -> [InteractionReference] {
        let used = storage.withLock { $0.used }
        return interactions.filter { !used.contains(cassette: $0.cassetteIndex, index: $0.index) }
    }

    /// Forgets every entry and every used interaction.
    public func reset() {
        storage.withLock { $0 = Storage() }
    }
}
