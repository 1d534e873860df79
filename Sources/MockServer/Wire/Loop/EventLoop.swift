import Foundation
import ServiceReplayLocking

/// One thread that owns a poller, the connections accepted on it, and their timers.
///
/// Everything except ``execute(_:)`` is confined to the loop's own thread, which is why the class is
/// `@unchecked Sendable`: other threads only ever enqueue jobs.
final class EventLoop: @unchecked Sendable {
    typealias Job = @Sendable () -> Void

    private struct Mailbox {
        var jobs: [Job] = []
        /// A wake byte is in the pipe, or the loop is about to take the jobs: no need to write another.
        var wakePending = false
    }

    let poller: any Poller
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let mailbox = Lock(Mailbox())
    private let threadID = Lock<UInt>(0)

    // Loop-confined state: touched only on the loop thread, never with overlapping accesses, so the
    // runtime exclusivity checks are turned off for it (see Connection).
    /// Open connections, indexed by descriptor.
    @exclusivity(unchecked) var connections: [Connection?] = []
    /// The listening sockets of attached servers.
    @exclusivity(unchecked) var listeners: [Int32: ServerContext] = [:]
    /// Listeners resting after descriptor exhaustion, and until when.
    @exclusivity(unchecked) var pausedListeners: [(fd: Int32, until: UInt64)] = []
    @exclusivity(unchecked) private var localJobs: [Job] = []
    @exclusivity(unchecked) private var events: [PollerEvent] = []
    @exclusivity(unchecked) var timers = TimerHeap()
    /// The monotonic time at which the current iteration began.
    @exclusivity(unchecked) private(set) var now: UInt64 = Sys.monotonicNanos()
    @exclusivity(unchecked) var dateCache = HTTPDateCache()
    /// Connections to `http://` upstreams a recording server forwards to, indexed by descriptor.
    @exclusivity(unchecked) var upstreams: [Int32: UpstreamConnection] = [:]
    /// The kept-alive ones waiting for their next exchange, per client.
    @exclusivity(unchecked) var idleUpstreams: [ObjectIdentifier: [UpstreamConnection]] = [:]

    /// At most this many connections are accepted per readiness report. One, like nginx's default:
    /// epoll then offers the next pending connection to a loop that is idle (EPOLLEXCLUSIVE wakes
    /// waiting loops first), which spreads a burst of connections evenly.
    static let acceptBatch = 1
    /// The stack of a loop thread, the same on every platform: Darwin gives secondary threads 512 KiB and
    /// Linux 8 MiB, and handlers run here (cassette and JSON parsing recurse up to 512 levels).
    static let threadStackSize = 8 << 20
    /// How long a listener rests after the process ran out of descriptors.
    static let exhaustionPause: UInt64 = 100_000_000

    /// Makes a loop and starts its thread; fails with the call and its `errno` when the loop's wake-up pipe
    /// cannot be made (the process is out of descriptors).
    static func start(backend: PollerBackend, name: String) -> Result<EventLoop, SocketFailure> {
        guard let pipe = Sys.makeWakePipe() else { return .failure(SocketFailure(call: "pipe", code: Sys.errorNumber)) }
        return .success(EventLoop(backend: backend, name: name, wakePipe: pipe))
    }

    private init(backend: PollerBackend, name: String, wakePipe: (read: Int32, write: Int32)) {
        poller = backend.make()
        (wakeRead, wakeWrite) = wakePipe
        poller.add(wakeRead, interest: .read, shared: false)
        let thread = Thread { [self] in
            Sys.nameCurrentThread(name)
            run()
        }
        thread.stackSize = Self.threadStackSize
        thread.start()
    }

    var isCurrentThread: Bool {
        threadID.withLock { $0 } == Sys.currentThreadID()
    }

    /// Runs `job` on the loop thread, after the current event when called from it.
    func execute(_ job: @escaping Job) {
        if isCurrentThread {
            localJobs.append(job)
            return
        }
        let needsWake = mailbox.withLock { box in
            box.jobs.append(job)
            defer { box.wakePending = true }
            return !box.wakePending
        }
        if needsWake { Sys.signal(wakeWrite) }
    }

    private func run() {
        let id = Sys.currentThreadID()
        threadID.withLock { $0 = id }
        while true {
            poller.wait(timeoutMilliseconds: nextTimeout(), into: &events)
            now = Sys.monotonicNanos()
            var woken = false
            for event in events {
                if event.fd == wakeRead {
                    Sys.drain(wakeRead)
                    woken = true
                } else if Int(event.fd) < connections.count, let connection = connections[Int(event.fd)] {
                    connection.handle(event)
                } else if let upstream = upstreams[event.fd] {
                    upstream.handle(event)
                } else if let server = listeners[event.fd] {
                    acceptConnections(on: event.fd, for: server)
                }
            }
            if woken { takeMailbox() }
            runLocalJobs()
            fireTimers()
        }
    }

    private func nextTimeout() -> Int32 {
        guard localJobs.isEmpty else { return 0 }
        var next = timers.earliest ?? .max
        if !upstreams.isEmpty { next = min(next, earliestUpstreamDeadline) }
        for paused in pausedListeners { next = min(next, paused.until) }
        guard next != .max else { return -1 }
        let current = Sys.monotonicNanos()
        guard next > current else { return 0 }
        // Round up so the loop never wakes just before a deadline and spins.
        return Int32(min((next - current + 999_999) / 1_000_000, 3_600_000))
    }

    private func takeMailbox() {
        let jobs = mailbox.withLock { box in
            box.wakePending = false
            defer { box.jobs.removeAll(keepingCapacity: true) }
            return box.jobs
        }
        for job in jobs { job() }
    }

    private func runLocalJobs() {
        while !localJobs.isEmpty {
            let jobs = localJobs
            localJobs.removeAll(keepingCapacity: true)
            for job in jobs { job() }
        }
    }

    private func fireTimers() {
        now = Sys.monotonicNanos()
        while let connection = timers.popDue(now: now) {
            connection.timerFired()
        }
        runLocalJobs()
        if !pausedListeners.isEmpty { resumeListeners() }
        if !upstreams.isEmpty { expireUpstreams() }
    }
}
