import Foundation
import ServiceReplayShared

/// One thread that owns a poller, the descriptors it watches (see ``LoopDescriptor``: listeners, client
/// connections, upstream connections, all alike to it) and their timers.
///
/// Everything except ``execute(_:)`` is confined to the loop's own thread, which is why the class is
/// `@unchecked Sendable`: other threads only ever enqueue jobs.
package final class EventLoop: @unchecked Sendable {
    package typealias Job = @Sendable () -> Void

    private struct Mailbox {
        var jobs: [Job] = []
        /// A wake byte is in the pipe, or the loop is about to take the jobs: no need to write another.
        var wakePending = false
    }

    package let poller: any Poller
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let mailbox = Lock(Mailbox())
    private let threadID = Lock<UInt>(0)

    // Loop-confined state: touched only on the loop thread, never with overlapping accesses, so the
    // runtime exclusivity checks are turned off for it (see Connection).
    /// What the loop watches, indexed by descriptor.
    @exclusivity(unchecked) private var descriptors: [LoopDescriptor?] = []
    @exclusivity(unchecked) private var localJobs: [Job] = []
    @exclusivity(unchecked) private var events: [PollerEvent] = []
    @exclusivity(unchecked) package var timers = TimerHeap()
    /// The monotonic time at which the current iteration began.
    @exclusivity(unchecked) package private(set) var now: UInt64 = Sys.monotonicNanos()
    @exclusivity(unchecked) var dateCache = HTTPDateCache()

    /// The stack of a loop thread, the same on every platform: Darwin gives secondary threads 512 KiB and
    /// Linux 8 MiB, and handlers run here (cassette and JSON parsing recurse up to 512 levels).
    static let threadStackSize = 8 << 20
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
    package func execute(_ job: @escaping Job) {
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
                } else if Int(event.fd) < descriptors.count, let descriptor = descriptors[Int(event.fd)] {
                    descriptor.handle(event)
                }
            }
            if woken { takeMailbox() }
            runLocalJobs()
            fireTimers()
        }
    }

    private func nextTimeout() -> Int32 {
        guard localJobs.isEmpty else { return 0 }
        guard let next = timers.earliest else { return -1 }
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
        while let descriptor = timers.popDue(now: now) {
            descriptor.timerFired()
        }
        runLocalJobs()
    }

    /// Starts watching `descriptor` for `interest` and handing it the reports (loop thread only). `shared` marks
    /// a listener several loops may watch (see ``Poller/add(_:interest:shared:)``).
    package func watch(_ descriptor: LoopDescriptor, interest: Interest, shared: Bool = false) {
        let index = Int(descriptor.fd)
        if index >= descriptors.count {
            descriptors.append(contentsOf: repeatElement(nil, count: index + 1 - descriptors.count))
        }
        descriptors[index] = descriptor
        poller.add(descriptor.fd, interest: interest, shared: shared)
    }

    /// Forgets `descriptor` and its timer (loop thread only). Its watch is the caller's to end: a listener,
    /// which stays open for the other loops, removes it from the poller if it is watched.
    func forget(_ descriptor: LoopDescriptor) {
        descriptors[Int(descriptor.fd)] = nil
        timers.remove(descriptor)
    }

    /// Forgets `descriptor`, its timer and its watch, because it is about to be closed (loop thread only).
    package func forgetClosing(_ descriptor: LoopDescriptor) {
        forget(descriptor)
        poller.forgetClosing(descriptor.fd)
    }

    /// Starts accepting for `server` on this loop (loop thread only).
    func attach(_ server: ServerContext) {
        watch(Listener(server: server, loop: self), interest: .read, shared: true)
    }

    /// Stops accepting for `server` and closes its connections on this loop (loop thread only).
    func detach(_ server: ServerContext) {
        for case let descriptor? in descriptors {
            descriptor.detach(from: server)
        }
    }
}
