import Foundation
import ServiceReplayShared

/// One client of `GET /__mockserver/journal/events`: the journal's entries as server-sent events, first every
/// entry still kept (from the sequence number asked for), then each new one as it is journaled.
///
/// Each entry is one message, `id: SEQUENCE` then `data: ENTRY` (the entry as one line of JSON, shaped as
/// one of `GET journal`'s `entries`), then a blank line. A reset of the journal is `event: reset` with
/// `data: {}`, after which the numbers start again from 0; a comment, `: keep-alive`, goes out every
/// `keepAliveInterval` (15 seconds on a server), so that proxies keep the connection open.
///
/// It never slows the requests being journaled: the journal only tells it that something changed
/// (``journalChanged()`` notes it and schedules a pass on the stream's own queue), and the pass reads the
/// entries from the journal, which is their only copy. It hands the connection at most ``pendingBudget``
/// bytes the client has not yet taken, and waits for the client to read them before reading further. A
/// client misses the entries the journal dropped before they were sent (it keeps the newest
/// `journalCapacity`): whether it was slower than the requests (under load, or reading nothing for a while)
/// or asked, from the start, for entries dropped before it connected. It is told so with `event: skipped` and
/// `data: {"from": F, "to": T}` (the entries numbered F up to T, T excluded, are gone), and the stream goes on
/// from T, so that a page stays connected under any load, the server's memory stays bounded, and no entry
/// the client asked for is left out unsaid.
final class JournalEventStream: JournalWatcher {
    /// At most this many bytes wait for the client to take them before the stream reads further entries.
    static let pendingBudget = 256 << 10
    /// At most this many entries are read from the journal at once, so that a long backlog is not copied whole.
    static let batchSize = 256

    private struct State {
        /// A change arrived since the running pass read the journal.
        var dirty = false
        /// A pass is scheduled or running.
        var running = false
        /// The sequence number of the next entry to send.
        var next: Int
        /// The journal's reset count the numbers belong to.
        var resets: Int
        /// Whether the next pass sends `event: reset` first.
        var announceReset: Bool
        var closed = false
    }

    /// The response: what the connection sends.
    let live: LiveStream
    private let journal: Journal
    private let redaction: RedactionRules
    private let queue = DispatchQueue(label: "mockserver.journal-events")
    private let state: Lock<State>
    private let keepAliveInterval: DispatchTimeInterval

    /// A stream of `journal`'s entries numbered `since` or more (from 0 after a reset event when `since` is
    /// beyond the journal's next number, which only numbers from before a reset are; those of them the journal
    /// dropped already are named by a skipped event, then the stream goes on from the oldest kept), redacted by
    /// `redaction`, with a keep-alive comment after each `keepAliveInterval` with nothing sent. Nothing is read
    /// or sent before ``start()``.
    init(journal: Journal, redaction: RedactionRules, since: Int, keepAliveInterval: Duration) {
        self.journal = journal
        self.keepAliveInterval = .nanoseconds(Int(clamping: max(1_000_000, keepAliveInterval.clampedNanoseconds)))
        self.redaction = redaction
        let position = journal.position
        let stale = since > position.next
        state = Lock(State(next: stale ? 0 : since, resets: position.resets, announceReset: stale))
        live = LiveStream(
            head: HTTPResponse(
                status: 200,
                headers: HTTPHeaders(pairs: [
                    ("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no"),
                ])))
    }

    /// Starts sending: watches the journal, arms the keep-alive and sends the entries already kept.
    func start() {
        live.onCancel { [weak self] in self?.close() }
        journal.watch(self)
        scheduleKeepAlive()
        journalChanged()
    }

    /// Notes the change and schedules a pass unless one is on its way: called on a request's thread, so it
    /// does nothing more.
    func journalChanged() {
        let schedule = state.withLock { state -> Bool in
            state.dirty = true
            guard !state.running, !state.closed else { return false }
            state.running = true
            return true
        }
        if schedule { queue.async { self.run() } }
    }

    /// Passes over the journal until no change arrived during the last one.
    private func run() {
        while state.withLock({ state -> Bool in
            guard state.dirty, !state.closed else {
                state.running = false
                return false
            }
            state.dirty = false
            return true
        }) {
            pass()
        }
    }

    /// Sends what the journal holds beyond what was sent, up to the budget; when the budget is spent, waits
    /// for the client to take it (which brings another pass).
    private func pass() {
        while true {
            // Nothing more, not even a notice, while the client has not taken what it was given: a client that
            // reads nothing costs the budget, however many requests come meanwhile.
            if live.pendingByteCount >= Self.pendingBudget {
                live.whenTaken { [weak self] in self?.journalChanged() }
                return
            }
            let sent = state.withLock { $0 }
            let position = journal.position
            if position.resets != sent.resets || sent.announceReset {
                state.withLock { state in
                    state.next = 0
                    state.resets = position.resets
                    state.announceReset = false
                }
                live.send(Data("event: reset\ndata: {}\n\n".utf8))
                continue
            }
            // Entries this client was to be sent are gone: it read too slowly, or they were gone before it came
            // (its first backlog, or the first after a reset, starts past them).
            if sent.next < position.oldest {
                skip(from: sent.next, to: position.oldest)
                continue
            }
            let (records, resets) = journal.records(since: sent.next, limit: Self.batchSize)
            // A reset came in between: the next round announces it.
            guard resets == sent.resets else { continue }
            guard let first = records.first, let last = records.last else { return }
            if first.sequence > sent.next {
                skip(from: sent.next, to: first.sequence)
                continue
            }
            var bytes = Data()
            for record in records {
                bytes += Self.message(record, redaction: redaction)
            }
            state.withLock { $0.next = last.sequence + 1 }
            live.send(bytes)
        }
    }

    /// One entry as its server-sent event.
    static func message(_ record: JournalRecord, redaction: RedactionRules) -> Data {
        var message = Data("id: \(record.sequence)\ndata: ".utf8)
        message += ControlJSON.entry(record.entry, redaction: redaction).serialized(pretty: false)
        message += Data("\n\n".utf8)
        return message
    }

    /// The journal dropped the entries numbered `from` up to `to` before this client was sent them (whether
    /// they were behind it or in its first backlog): says so, and goes on from `to`.
    private func skip(from: Int, to: Int) {
        state.withLock { $0.next = to }
        live.send(Data("event: skipped\ndata: {\"from\": \(from), \"to\": \(to)}\n\n".utf8))
    }

    /// Plans the next keep-alive comment: one block waits at a time, holding the stream weakly, and none is
    /// planned once the stream is closed.
    private func scheduleKeepAlive() {
        queue.asyncAfter(deadline: .now() + keepAliveInterval) { [weak self] in self?.keepAlive() }
    }

    /// Sends the keep-alive comment (unless the client has not taken what was sent already), and plans the next.
    private func keepAlive() {
        guard !state.withLock({ $0.closed }) else { return }
        if live.pendingByteCount == 0 { live.send(Data(": keep-alive\n\n".utf8)) }
        scheduleKeepAlive()
    }

    /// Stops watching and sending (the client went away, the server stopped, or the stream was cut).
    func close() {
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        journal.unwatch(self)
    }
}
