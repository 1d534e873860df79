import Foundation
import ServiceReplayLocking

/// Every request a server received, with its time and outcome, for tests to query and assert on.
///
/// Thread-safe: servers record from several threads at once. Memory is bounded: beyond ``capacity`` entries,
/// or ``bodyBudget`` bytes of request bodies, the oldest entries are dropped (``droppedCount`` says how many,
/// and count assertions mention it); an entry costs about 150 bytes besides the request it keeps. Which
/// interactions were used is kept apart and never dropped, so ``verifyEveryInteractionUsed(in:)`` stays exact.
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

    /// Records `request` with its outcome and returns the entry; `time` defaults to now.
    @discardableResult
    public func record(_ request: HTTPRequest, outcome: JournalOutcome, at time: Date = Date()) -> JournalEntry {
        let interaction = outcome.kind == .matched || outcome.kind == .faultInjected ? outcome.interaction : nil
        let sequence = store(request, .other(JournalRecord.Box(outcome)), used: interaction.map { ($0.cassetteIndex, $0.index) }, at: time)
        return JournalEntry(sequence: sequence, time: time, request: request, outcome: outcome)
    }

    /// Records `request` with the outcome of a replay decision and returns the entry; `time` defaults to now.
    @discardableResult
    package func record(_ request: HTTPRequest, decision: ReplayDecision, at time: Date = Date()) -> JournalEntry {
        let sequence = append(request, decision: decision, at: time)
        return JournalEntry(sequence: sequence, time: time, request: request, outcome: JournalOutcome(decision))
    }

    /// Records `request` with the outcome of a replay decision without building the public entry (what a
    /// server does for every request when nothing observes them); returns the entry's sequence number.
    @discardableResult
    func append(_ request: HTTPRequest, decision: ReplayDecision, at time: Date = Date()) -> Int {
        switch decision {
        case .matched(let match):
            let used = switch match.source {
            case .prepared(let cassette, let member): (cassette.ordinal, member)
            case .given(let given): (given.interaction.cassetteIndex, given.interaction.index)
            }
            return store(request, .matched(match), used: used, at: time)
        case .unmatched:
            return store(request, .other(JournalRecord.Box(JournalOutcome(decision))), used: nil, at: time)
        }
    }

    /// Keeps a record within the limits; returns its sequence number.
    private func store(_ request: HTTPRequest, _ outcome: JournalRecord.Outcome, used: (cassette: Int, index: Int)?,
                       at time: Date) -> Int {
        storage.withLock { storage in
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

    /// How many requests were recorded since creation or ``reset()``, dropped ones included.
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

    /// The interactions of `cassettes` (given in the engine's order, ``ReplayEngine/preparedCassettes``) that no
    /// recorded request matched, in cassette then interaction order.
    public func unusedInteractions(in cassettes: [Cassette]) -> [InteractionReference] {
        let used = storage.withLock { $0.used }
        var unused: [InteractionReference] = []
        for (ordinal, cassette) in cassettes.enumerated() {
            for (index, interaction) in cassette.interactions.enumerated() where !used.contains(cassette: ordinal, index: index) {
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
            for index in 0..<cassette.count where !used.contains(cassette: cassette.ordinal, index: index) {
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
