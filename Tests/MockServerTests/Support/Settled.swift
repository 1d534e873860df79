import Foundation
@testable import MockServer
@testable import MockServerWire
import ServiceReplayShared

/// Ways for a test to know that a server has done what it was going to do, so that it can check that something
/// did *not* happen without watching the wire for a while (issue 50): a short look passes wrongly when the
/// machine stalls the server for longer than the look.
///
/// A reply is carried out on the loop thread that read its request, in the same turn as the handler that chose
/// it: what the reply writes, and whether it closes, is done before that turn ends. A job queued on a loop runs
/// after the turn under way. So once a handler is known to have run (``Signal``, or a journal entry, which the
/// replay handler records before it returns), ``loops(of:)`` returns only after that reply was carried out.
enum Settled {
    /// Returns once every loop of `group` has run a job queued now: each has finished the turn it was in, and
    /// fired the timers that were due by then (a loop fires them after its jobs, so a second call is needed
    /// for those).
    static func loops(of group: EventLoopGroup = .shared) async {
        await group.onEveryLoop { _ in }
    }
}

/// A one-way door for "this has happened": opened once by a handler, awaited by the test (no polling, no sleep).
final class Signal: Sendable {
    private let state = Lock<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Opens the door; later calls do nothing.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Returns once the door is open, or once `hangGuard` has passed (then ``isOpen`` is `false`): only a bound
    /// against a hang, never a timing the test relies on.
    func wait(hangGuard: Duration = .seconds(60)) async {
        let guardTask = Task { [self] in
            // Cancelled once the door opened: then it must not open it again for nothing.
            guard (try? await Task.sleep(for: hangGuard)) != nil else { return }
            open()
        }
        defer { guardTask.cancel() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }
}

extension Journal {
    /// Returns `true` once `count` entries have been recorded since the journal was created or last reset, told
    /// by the journal itself (on the request's thread, before the handler returns its reply); `false` when the
    /// 60 s hang guard passed first.
    func waitForEntries(_ count: Int) async -> Bool {
        let watcher = JournalCount(journal: self, count: count)
        watch(watcher)
        defer { unwatch(watcher) }
        watcher.journalChanged()
        await watcher.reached.wait()
        return position.next >= count
    }
}

/// Opens its signal when the journal holds `count` records.
private final class JournalCount: JournalWatcher {
    let journal: Journal
    let count: Int
    let reached = Signal()

    init(journal: Journal, count: Int) {
        self.journal = journal
        self.count = count
    }

    func journalChanged() {
        if journal.position.next >= count { reached.open() }
    }
}
