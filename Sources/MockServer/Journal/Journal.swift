import Foundation
import ServiceReplayShared

/// Every request a server received, with its time and outcome, for tests to query and assert on.
///
/// Thread-safe: servers append from several threads at once. Memory is bounded: beyond ``capacity`` entries,
/// or ``bodyBudget`` bytes of bodies (requests', and the responses it alone keeps: a forwarded request's, a
/// fault's), the oldest entries are dropped (``droppedCount`` says how many,
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
        /// Told of each entry added and each reset, outside the lock (see ``JournalWatcher``).
        var watchers: [ObjectIdentifier: any JournalWatcher] = [:]
        /// How many times the journal was reset: a watcher that sees it change starts again from entry 0.
        var resets = 0
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
    func append(_ request: HTTPRequest, matched: MatchedInteraction, at time: Date, timing: JournalTiming = .zero) -> Int {
        store(request, .matched(matched), used: matched.reference, at: time, timing: timing)
    }

    /// Adds `request` with `outcome`, counting `used` as used, without building the public entry; returns the
    /// entry's sequence number.
    func append(
        _ request: HTTPRequest, outcome: JournalOutcome, used: InteractionReference?, at time: Date, timing: JournalTiming = .zero,
        sent: JournalRecord.Sent? = nil
    ) -> Int {
        store(request, .other(JournalRecord.Box(outcome, sent: sent)), used: used, at: time, timing: timing)
    }

    /// Adds `request` with `outcome` that took `timing` and sent `sent` (`sentBytes` of body the journal alone
    /// keeps), and returns the entry (what a recording server does).
    func append(
        _ request: HTTPRequest, outcome: JournalOutcome, at time: Date, timing: JournalTiming, sent: JournalRecord.Sent?, sentBytes: Int
    ) -> JournalEntry {
        let interaction = outcome.kind == .matched || outcome.kind == .faultInjected ? outcome.interaction : nil
        let box = JournalRecord.Box(outcome, sent: sent, sentBytes: sentBytes)
        let sequence = store(request, .other(box), used: interaction, at: time, timing: timing)
        return JournalEntry(sequence: sequence, time: time, request: request, outcome: outcome, timing: timing)
    }

    /// Keeps a record within the limits; returns its sequence number.
    private func store(
        _ request: HTTPRequest, _ outcome: JournalRecord.Stored, used: InteractionReference?, at time: Date, timing: JournalTiming = .zero
    ) -> Int {
        let used = used.map { (cassette: $0.cassetteIndex, index: $0.index) }
        let (sequence, watchers) = storage.withLock { storage in
            let sequence = storage.recorded
            storage.recorded += 1
            if let used {
                storage.used.insert(cassette: used.cassette, index: used.index)
            }
            let record = JournalRecord(sequence: sequence, time: time, request: request, outcome: outcome, timing: timing)
            storage.bodyBytes += record.bodyBytes
            if let dropped = storage.kept.append(consume record, capacity: capacity) {
                storage.bodyBytes -= dropped.bodyBytes
            }
            while storage.bodyBytes > bodyBudget && storage.kept.count > 1 {
                storage.bodyBytes -= storage.kept.removeOldest().bodyBytes
            }
            // Without watchers (nearly always) this hands out the shared empty dictionary: no copy, no retain.
            return (sequence, storage.watchers)
        }
        for watcher in watchers.values { watcher.journalChanged() }
        return sequence
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
        let watchers = storage.withLock { storage in
            storage = Storage(watchers: storage.watchers, resets: storage.resets + 1)
            return storage.watchers
        }
        for watcher in watchers.values { watcher.journalChanged() }
    }

    // MARK: - Watching

    /// The kept records whose sequence number is `since` or more, oldest first, and how many resets the
    /// journal has seen (so that a reader can tell numbers that started again from 0); at most `limit` records.
    func records(since: Int, limit: Int = .max) -> (records: [JournalRecord], resets: Int) {
        storage.withLock { storage in
            let oldest = storage.recorded - storage.kept.count
            return (storage.kept.records(from: max(0, since - oldest), limit: limit), storage.resets)
        }
    }

    /// The number the next entry will have, the number of the oldest kept (`next` when none is), and how
    /// many resets there were.
    var position: (next: Int, oldest: Int, resets: Int) {
        storage.withLock { ($0.recorded, $0.recorded - $0.kept.count, $0.resets) }
    }

    /// Tells `watcher` of every entry added and every reset from now on, until ``unwatch(_:)``.
    func watch(_ watcher: any JournalWatcher) {
        storage.withLock { $0.watchers[ObjectIdentifier(watcher)] = watcher }
    }

    /// Stops telling `watcher`; the journal no longer holds it.
    func unwatch(_ watcher: any JournalWatcher) {
        _ = storage.withLock { $0.watchers.removeValue(forKey: ObjectIdentifier(watcher)) }
    }

    /// How many watchers are told of changes now.
    var watcherCount: Int {
        storage.withLock { $0.watchers.count }
    }
}

/// Told by a ``Journal`` that it changed (an entry added, or a reset), on the thread that changed it, after
/// the journal's lock is released: a request's thread, so the watcher must only note it and return, never
/// block or do the work there (see `JournalEventStream`).
protocol JournalWatcher: AnyObject, Sendable {
    /// Something was added, or the journal was reset: read it with ``Journal/records(since:)``.
    func journalChanged()
}
