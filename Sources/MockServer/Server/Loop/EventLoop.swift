import Foundation
import Synchronization

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
    private let mailbox = Mutex(Mailbox())
    private let threadID = Atomic<UInt>(0)

    // Loop-confined state.
    private var connections: [Connection?] = []
    private var listeners: [Int32: ServerContext] = [:]
    private var pausedListeners: [(fd: Int32, until: UInt64)] = []
    private var localJobs: [Job] = []
    private var events: [PollerEvent] = []
    var timers = TimerHeap()
    /// The monotonic time at which the current iteration began.
    private(set) var now: UInt64 = Sys.monotonicNanos()
    var dateCache = HTTPDateCache()

    /// At most this many connections are accepted per readiness report. One, like nginx's default:
    /// epoll then offers the next pending connection to a loop that is idle (EPOLLEXCLUSIVE wakes
    /// waiting loops first), which spreads a burst of connections evenly.
    private static let acceptBatch = 1
    /// How long a listener rests after the process ran out of descriptors.
    private static let exhaustionPause: UInt64 = 100_000_000

    init(backend: PollerBackend, name: String) {
        poller = backend.make()
        guard let pipe = Sys.makeWakePipe() else { fatalError("MockServer: cannot create an event-loop wake-up pipe: \(Sys.describe(Sys.errorNumber))") }
        (wakeRead, wakeWrite) = pipe
        poller.add(wakeRead, interest: .read, shared: false)
        Thread { [self] in
            Sys.nameCurrentThread(name)
            run()
        }.start()
    }

    var isCurrentThread: Bool {
        threadID.load(ordering: .relaxed) == Sys.currentThreadID()
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
        threadID.store(Sys.currentThreadID(), ordering: .relaxed)
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
                } else if let server = listeners[event.fd] {
                    accept(from: event.fd, for: server)
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
    }
}

// MARK: - Listeners and connections

extension EventLoop {
    /// Starts accepting for `server` on this loop (loop thread only).
    func attach(_ server: ServerContext) {
        listeners[server.listener] = server
        poller.add(server.listener, interest: .read, shared: true)
    }

    /// Stops accepting for `server` and closes its connections on this loop (loop thread only).
    func detach(_ server: ServerContext) {
        if listeners.removeValue(forKey: server.listener) != nil {
            if let index = pausedListeners.firstIndex(where: { $0.fd == server.listener }) {
                pausedListeners.remove(at: index)
            } else {
                poller.remove(server.listener)
            }
        }
        for case let connection? in connections where connection.server === server {
            connection.closeNow()
        }
    }

    private func accept(from listener: Int32, for server: ServerContext) {
        for _ in 0..<Self.acceptBatch {
            switch Sys.accept(listener) {
            case .wouldBlock:
                return
            case .skipped:
                continue
            case .exhausted:
                poller.remove(listener)
                pausedListeners.append((listener, now + Self.exhaustionPause))
                return
            case .accepted(let fd, let address):
                admit(fd, address: address, for: server)
            }
        }
    }

    private func admit(_ fd: Int32, address: SocketAddress, for server: ServerContext) {
        guard server.reserveConnectionSlot() else {
            Sys.close(fd)
            return
        }
        let info = HTTPConnectionInfo(id: server.nextConnectionID(), remoteAddress: address.host, remotePort: Int(address.port))
        switch server.handler.admission(for: info) {
        case .accept:
            break
        case .close:
            server.releaseConnectionSlot()
            Sys.close(fd)
            return
        case .reset:
            server.releaseConnectionSlot()
            Sys.reset(fd)
            return
        }
        let connection = Connection(fd: fd, loop: self, server: server, info: info)
        let index = Int(fd)
        if index >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: index + 1 - connections.count))
        }
        connections[index] = connection
        poller.add(fd, interest: .read, shared: false)
        connection.start()
    }

    /// Forgets a connection that is closing its descriptor (loop thread only).
    func remove(_ connection: Connection) {
        connections[Int(connection.fd)] = nil
        poller.forgetClosing(connection.fd)
        timers.remove(connection)
        connection.server.releaseConnectionSlot()
    }

    private func resumeListeners() {
        let due = pausedListeners.filter { $0.until <= now }
        pausedListeners.removeAll { $0.until <= now }
        for paused in due where listeners[paused.fd] != nil {
            poller.add(paused.fd, interest: .read, shared: true)
        }
    }
}
