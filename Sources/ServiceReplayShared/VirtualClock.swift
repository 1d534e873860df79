import Foundation

/// A clock for tests on which nothing sleeps: time moves only when every party that shares it is waiting
/// for it, and then straight to the next moment one of them waits for.
///
/// Given to a ServiceKit client alone, it is the clock of retries and pagination pauses: a sleep returns at
/// once, advances ``now`` by the requested time and records it (`clock.sleeps == [2]`).
///
/// Given to a replay server too (`CassetteServer.Configuration.clock`, the `.mockServer` trait, `withReplay`
/// and the fault matrix do it), it is also the clock of the server's time-based faults (latency, stall,
/// throttle, a stream's recorded gaps) and of the client's transfer timeout. Each request the client sends
/// then carries the header `X-MockServer-Transfer`, which the server removes before anything else sees the
/// request, and time advances only while every such transfer is waiting on the server's fault and the
/// client has read every body byte the server sent. So a latency of 800 ms against a 1 s timeout always
/// answers, 1.2 s always times out, and a stall times out at once after exactly the timeout, whatever the
/// machine's speed.
///
/// Requests the clock cannot see keep the real clock: one from a client on another clock or none (an app's
/// own `URLSession`), answered by a server on this clock, is delayed in real time, and ``realTimeAnswers``
/// counts it. A transfer sent to a server not on this clock waits for that server in real time.
public final class VirtualClock: Sendable {
    /// The request header that names a client's transfer to a server on the same clock.
    package static let transferHeader = "X-MockServer-Transfer"

    /// One transfer's state as the clock sees it.
    struct Transfer {
        /// The longest wait for the server's progress, in nanoseconds; `nil` for no timeout.
        var limit: UInt64?
        /// When the server last wrote (or the transfer began).
        var lastProgress: UInt64
        /// Whether a server on this clock has taken the transfer up.
        var isTaken = false
        /// Whether the server waits on this clock: parked until ``parkedUntil``, or stalled for good.
        var serverWaits = false
        var parkedUntil: UInt64?
        var resume: (@Sendable () -> Void)?
        /// Body bytes the server sent that the client must read before time may move; `nil` when they cannot
        /// be counted (a compressed body).
        var unread: Int? = 0
        var onTimeout: (@Sendable () -> Void)?

        /// Whether time may move for this transfer: the server waits and the client has read what came.
        var isSettled: Bool { serverWaits && (unread ?? 0) <= 0 }
        var timeoutAt: UInt64? { limit.map { lastProgress &+ $0 } }
    }

    struct Sleeper {
        let id: UInt64
        let wakeAt: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    struct State {
        var start: Date
        /// Nanoseconds since `start`.
        var elapsed: UInt64 = 0
        var sleeps: [TimeInterval] = []
        var transfers: [UInt64: Transfer] = [:]
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
        var servers = 0
        var realTimeAnswers = 0
        /// Whether a thread is moving time now; another that would leaves it to that thread, which looks at
        /// the whole state again before each step.
        var isAdvancing = false
    }

    private let state: Lock<State>
    /// Tells this clock's transfers apart from another's in the header. Random, so that only a client given a
    /// transfer's header value can name it: a web page that reaches the server cannot guess one.
    private let clockID = UInt64.random(in: 1...UInt64.max)

    /// A clock reading `now` (1 January 2001 by default) that has slept nothing yet.
    public init(now: Date = Date(timeIntervalSinceReferenceDate: 0)) {
        state = Lock(State(start: now))
    }

    /// The current virtual date: the start plus every sleep, ``advance(by:)`` and wait of a server on this clock.
    public var now: Date {
        state.withLock { $0.start.addingTimeInterval(Double($0.elapsed) / 1e9) }
    }

    /// The virtual time that passed since the clock was made.
    public var elapsed: Duration { .nanoseconds(Int64(clamping: state.withLock { $0.elapsed })) }

    /// Every requested sleep in seconds, in order.
    public var sleeps: [TimeInterval] { state.withLock { $0.sleeps } }

    /// The sum of ``sleeps``.
    public var totalSlept: TimeInterval { sleeps.reduce(0, +) }

    /// How many timed answers (delayed, throttled, stalled or streamed) a server on this clock gave in real
    /// time, because the request came from a client not on this clock.
    public var realTimeAnswers: Int { state.withLock { $0.realTimeAnswers } }

    /// Records the sleep and advances ``now`` by `seconds` (negative counts as zero). Returns at once unless a
    /// transfer on this clock is under way; then it returns once time has moved that far. Throws
    /// `CancellationError`, recording nothing, when the calling task is already cancelled, and when it is
    /// cancelled while waiting.
    public func sleep(for seconds: TimeInterval) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let registered = state.withLock { state -> Bool in
                    // Cancelled since the check above: the handler below ran before there was a sleeper to throw
                    // out (it takes this lock too, so it cannot run between this check and the registration).
                    guard !Task.isCancelled else { return false }
                    state.sleeps.append(seconds)
                    let wakeAt = state.elapsed &+ Self.nanoseconds(seconds)
                    state.sleepers.append(Sleeper(id: id, wakeAt: wakeAt, continuation: continuation))
                    return true
                }
                guard registered else { return continuation.resume(throwing: CancellationError()) }
                advance()
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves ``now`` forward by `seconds` without recording a sleep (time passing elsewhere).
    public func advance(by seconds: TimeInterval) {
        state.withLock { $0.elapsed &+= Self.nanoseconds(seconds) }
        advance()
    }

    /// Sets the date ``now`` reads before any time has passed (a replay's clock learns the cassette's date
    /// once its session has read it).
    package func setStart(_ date: Date) {
        state.withLock { $0.start = date }
    }

    // MARK: - Servers

    /// A server on this clock started; clients pair their transfers with servers only while one runs.
    package func attachServer() {
        state.withLock { $0.servers += 1 }
    }

    /// A server on this clock stopped.
    package func detachServer() {
        state.withLock { $0.servers = max(0, $0.servers - 1) }
    }

    /// Whether a server on this clock runs, so that a client's transfers should be paired with it.
    package var hasServer: Bool { state.withLock { $0.servers > 0 } }

    /// A server answered a request it could not pair with a transfer with a timed answer, in real time.
    package func noteRealTimeAnswer() {
        state.withLock { $0.realTimeAnswers += 1 }
    }

    /// The transfer a request's header value names, if it is one of this clock's and still under way: a server
    /// on this clock paces that request's answer with it.
    package func pacing(for headerValue: String) -> VirtualPacing? {
        let parts = headerValue.split(separator: ".")
        guard parts.count == 2, UInt64(parts[0]) == clockID, let id = UInt64(parts[1]) else { return nil }
        let known = state.withLock { state -> Bool in
            guard state.transfers[id] != nil else { return false }
            // The server has it now: its progress is the transfer's, from this moment.
            state.transfers[id]?.lastProgress = state.elapsed
            state.transfers[id]?.isTaken = true
            return true
        }
        return known ? VirtualPacing(clock: self, transfer: id) : nil
    }

    // MARK: - Client transfers

    /// Starts a transfer whose timeout is `limit` seconds without progress from the server (none when `nil`, not
    /// positive or not finite); it lasts until ``VirtualTransfer/end()`` or its timeout.
    package func beginTransfer(limit: TimeInterval?) -> VirtualTransfer {
        let id = state.withLock { state in
            state.nextID += 1
            let nanoseconds = limit.flatMap { $0 > 0 && $0.isFinite ? Self.nanoseconds($0) : nil }
            state.transfers[state.nextID] = Transfer(limit: nanoseconds, lastProgress: state.elapsed)
            return state.nextID
        }
        return VirtualTransfer(clock: self, id: id, headerValue: "\(clockID).\(id)")
    }

    /// Sets what happens when the transfer times out; at once when it timed out already. Returns `false` then.
    @discardableResult
    func onTimeout(of id: UInt64, _ action: @escaping @Sendable () -> Void) -> Bool {
        let present = state.withLock { state -> Bool in
            guard state.transfers[id] != nil else { return false }
            state.transfers[id]?.onTimeout = action
            return true
        }
        if !present { action() }
        return present
    }

    /// Times the transfer out now unless a server on this clock has taken it up (the real-time backstop for a
    /// request that went to a server not on the clock).
    func expireUnlessTaken(_ id: UInt64) {
        let action = state.withLock { state -> (@Sendable () -> Void)?? in
            guard let transfer = state.transfers[id], !transfer.isTaken else { return nil }
            state.transfers[id] = nil
            return .some(transfer.onTimeout)
        }
        guard let action else { return }
        action?()
        advance()
    }

    /// The client read `count` body bytes of the transfer.
    func received(_ count: Int, for id: UInt64) {
        state.withLock { state in
            guard let unread = state.transfers[id]?.unread else { return }
            state.transfers[id]?.unread = unread - count
        }
        advance()
    }

    /// The transfer is over (answered, failed or cancelled): it no longer holds time, and a server waiting for
    /// it is forgotten.
    func endTransfer(_ id: UInt64) {
        let removed = state.withLock { $0.transfers.removeValue(forKey: id) }
        if removed != nil { advance() }
    }

    // MARK: - Server pacing

    /// The server wrote for the transfer: `bodyBytes` the client must read before time moves (`nil` when they
    /// cannot be counted), and any bytes count as progress.
    func serverWrote(_ id: UInt64, bodyBytes: Int?) {
        state.withLock { state in
            guard var transfer = state.transfers[id] else { return }
            transfer.lastProgress = state.elapsed
            if let count = bodyBytes {
                transfer.unread = transfer.unread.map { $0 + count }
            } else {
                transfer.unread = nil
            }
            state.transfers[id] = transfer
        }
    }

    /// The server waits until `elapsed` nanoseconds (since the clock's start) to go on with the transfer, then
    /// calls `resume`; a transfer already over is ignored.
    func serverPark(_ id: UInt64, until elapsed: UInt64, _ resume: @escaping @Sendable () -> Void) {
        state.withLock { state in
            guard state.transfers[id] != nil else { return }
            state.transfers[id]?.serverWaits = true
            state.transfers[id]?.parkedUntil = max(elapsed, state.elapsed)
            state.transfers[id]?.resume = resume
        }
        advance()
    }

    /// The server will write nothing more for the transfer: only its timeout (or the client) ends it.
    func serverStall(_ id: UInt64) {
        state.withLock { state in
            guard state.transfers[id] != nil else { return }
            state.transfers[id]?.serverWaits = true
            state.transfers[id]?.parkedUntil = nil
            state.transfers[id]?.resume = nil
        }
        advance()
    }

    /// Nanoseconds since the clock's start.
    package var elapsedNanoseconds: UInt64 { state.withLock { $0.elapsed } }

    // MARK: - Moving time

    private enum Due {
        case sleeper(Sleeper)
        case server(@Sendable () -> Void)
        case timeout((@Sendable () -> Void)?)
    }

    /// While every transfer is settled, moves time to the earliest thing waited for and lets it happen; one
    /// thread at a time.
    private func advance() {
        let proceed = state.withLock { state -> Bool in
            if state.isAdvancing { return false }
            state.isAdvancing = true
            return true
        }
        guard proceed else { return }
        while let due = state.withLock({ Self.takeDue(&$0) }) {
            switch due {
            case .sleeper(let sleeper): sleeper.continuation.resume()
            case .server(let resume): resume()
            case .timeout(let action): action?()
            }
        }
    }

    /// The next thing due, time moved to it; `nil` (and no longer advancing) when nothing may happen now.
    private static func takeDue(_ state: inout State) -> Due? {
        guard state.transfers.values.allSatisfy(\.isSettled) else {
            state.isAdvancing = false
            return nil
        }
        // The earliest: a sleeper, a server's wake-up, or a timeout, in that order at the same moment (a
        // server's bytes at the very deadline count as in time).
        var best: (at: UInt64, rank: Int, key: UInt64)?
        func consider(_ at: UInt64, _ rank: Int, _ key: UInt64) {
            if let current = best, (current.at, current.rank, current.key) <= (at, rank, key) { return }
            best = (at, rank, key)
        }
        for sleeper in state.sleepers { consider(sleeper.wakeAt, 0, sleeper.id) }
        for (id, transfer) in state.transfers {
            if let at = transfer.parkedUntil { consider(at, 1, id) }
            if let at = transfer.timeoutAt { consider(at, 2, id) }
        }
        guard let best else {
            state.isAdvancing = false
            return nil
        }
        state.elapsed = max(state.elapsed, best.at)
        switch best.rank {
        case 0:
            let index = state.sleepers.firstIndex { $0.id == best.key }!
            return .sleeper(state.sleepers.remove(at: index))
        case 1:
            let resume = state.transfers[best.key]?.resume
            state.transfers[best.key]?.serverWaits = false
            state.transfers[best.key]?.parkedUntil = nil
            state.transfers[best.key]?.resume = nil
            return .server(resume ?? {})
        default:
            let transfer = state.transfers.removeValue(forKey: best.key)
            return .timeout(transfer?.onTimeout)
        }
    }

    private static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        guard seconds > 0 else { return 0 }
        // About 31 years: beyond it a wait means "never", and stays in range.
        return UInt64(min(seconds, 1e9) * 1e9)
    }
}

/// A client's transfer on a ``VirtualClock``: its header value goes with the request; ``end()`` (or `deinit`)
/// releases the clock.
package final class VirtualTransfer: Sendable {
    private let clock: VirtualClock
    private let id: UInt64
    /// The value of ``VirtualClock/transferHeader`` for the request.
    package let headerValue: String
    private let backstop = Lock<Task<Void, Never>?>(nil)

    init(clock: VirtualClock, id: UInt64, headerValue: String) {
        self.clock = clock
        self.id = id
        self.headerValue = headerValue
    }

    deinit {
        end()
    }

    /// Times the transfer out after `seconds` of real time unless a server on the clock has taken it up by
    /// then: a request sent to a server not on the clock times out as it would on the real clock. Once taken
    /// up, only the clock times it out, however slowly the machine runs.
    package func startRealTimeBackstop(after seconds: TimeInterval) {
        guard seconds > 0, seconds.isFinite else { return }
        let clock = clock
        let id = id
        let task = Task {
            guard (try? await Task.sleep(for: .seconds(min(seconds, 1e9)))) != nil else { return }
            clock.expireUnlessTaken(id)
        }
        backstop.withLock { $0 = task }
    }

    /// Calls `action` when the transfer times out, or at once when it did already (returning `false`).
    @discardableResult
    package func onTimeout(_ action: @escaping @Sendable () -> Void) -> Bool {
        clock.onTimeout(of: id, action)
    }

    /// The client read `count` more bytes of the body.
    package func received(_ count: Int) {
        clock.received(count, for: id)
    }

    /// The transfer is over.
    package func end() {
        backstop.withLock { $0 }?.cancel()
        clock.endTransfer(id)
    }
}

/// A server's side of a transfer on a ``VirtualClock``: its waits are the clock's.
package struct VirtualPacing: Sendable {
    let clock: VirtualClock
    let transfer: UInt64

    /// Nanoseconds since the clock's start: the server's "now" for this answer.
    package var now: UInt64 { clock.elapsedNanoseconds }

    /// The server wrote bytes; `bodyBytes` of them are body the client must read (`nil`: not countable).
    package func wrote(bodyBytes: Int?) {
        clock.serverWrote(transfer, bodyBytes: bodyBytes)
    }

    /// Waits until `elapsed` (nanoseconds since the clock's start), then calls `resume`, on the thread that
    /// moved time.
    package func park(until elapsed: UInt64, _ resume: @escaping @Sendable () -> Void) {
        clock.serverPark(transfer, until: elapsed, resume)
    }

    /// Nothing more comes from the server.
    package func stall() {
        clock.serverStall(transfer)
    }
}
