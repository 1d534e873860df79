import Foundation
import ServiceReplayShared

/// The event loops that serve every ``HTTPServer`` in the process: started lazily on first use, one per
/// core, and shared so that dozens of servers (one per parallel test) cost no extra threads.
package final class EventLoopGroup: Sendable {
    package let loops: [EventLoop]
    /// Why not even one loop could start (servers on the group then fail to start with it); `nil` when
    /// at least one runs.
    let startFailure: MockServerError?
    /// Whether every loop watches each server's listener; see ``acceptingLoops()``.
    private let everyLoopAccepts: Bool
    /// The loop that watches the next server's listener when only one does.
    private let nextAcceptingLoop = Lock(0)

    /// The process-wide group: one loop per active processor (at least 1, at most 16).
    package static let shared = EventLoopGroup(loopCount: ProcessInfo.processInfo.activeProcessorCount)

    /// Starts `loopCount` loops (clamped to 1...16), or as many as the descriptor limit allows: each needs a
    /// wake-up pipe, and a low limit (macOS shells default to 256) on a many-core machine must cost loops,
    /// not the process. Fewer loops than asked for is written to standard error as a warning.
    init(loopCount: Int, backend: PollerBackend = .automatic) {
        let count = min(max(loopCount, 1), 16)
        var loops: [EventLoop] = []
        var failure: SocketFailure?
        for index in 0..<count {
            switch EventLoop.start(backend: backend, name: "MockServerLoop\(index)") {
            case .success(let loop): loops.append(loop)
            case .failure(let error): failure = error
            }
            if failure != nil { break }
        }
        self.loops = loops
        everyLoopAccepts = loops.first?.poller.wakesOneLoopPerConnection ?? false
        guard let failure else {
            startFailure = nil
            return
        }
        let reason = "\(failure.call) failed: \(Sys.describe(failure.code))"
        if loops.isEmpty {
            startFailure = MockServerError(
                .cannotListen,
                "Cannot start an event loop to serve from: \(reason); raise the descriptor limit (ulimit -n).")
        } else {
            startFailure = nil
            let warning =
                "warning: MockServer serves from \(loops.count) of \(count) event loops: \(reason); "
                + "raise the descriptor limit (ulimit -n) for more.\n"
            FileHandle.standardError.write(Data(warning.utf8))
        }
    }

    /// The loops that are to watch a new server's listener and serve the connections they accept.
    ///
    /// Every loop, when the poller wakes only one loop per connection (epoll), so that one busy server uses
    /// every core. Otherwise (poll, as on Darwin) one loop, taken in turn for each new server: with every loop
    /// watching, each connection would wake them all. A server then runs on one core, and the many small
    /// servers of a test suite still spread over all of them.
    func acceptingLoops() -> [EventLoop] {
        guard !everyLoopAccepts, !loops.isEmpty else { return loops }
        let index = nextAcceptingLoop.withLock { next in
            defer { next = (next + 1) % loops.count }
            return next
        }
        return [loops[index]]
    }

    /// Runs `job` on every loop, then `completion` on the last loop to finish; does not wait.
    func onEveryLoop(_ job: @escaping @Sendable (EventLoop) -> Void, then completion: @escaping @Sendable () -> Void) {
        on(loops, job, then: completion)
    }

    /// Runs `job` on each of `chosen`, then `completion` on the last one to finish; does not wait.
    func on(_ chosen: [EventLoop], _ job: @escaping @Sendable (EventLoop) -> Void, then completion: @escaping @Sendable () -> Void) {
        let remaining = Countdown(chosen.count)
        for loop in chosen {
            loop.execute {
                job(loop)
                if remaining.decrement() == 0 { completion() }
            }
        }
    }

    /// Runs `job` on every loop and returns when all have finished it.
    func onEveryLoop(_ job: @escaping @Sendable (EventLoop) -> Void) async {
        await on(loops, job)
    }

    /// Runs `job` on each of `chosen` and returns when all have finished it.
    func on(_ chosen: [EventLoop], _ job: @escaping @Sendable (EventLoop) -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            on(chosen, job, then: { continuation.resume() })
        }
    }
}

/// A shared countdown for jobs finishing on several threads.
private final class Countdown: Sendable {
    private let value: Lock<Int>
    init(_ count: Int) { value = Lock(count) }
    func decrement() -> Int {
        value.withLock { count in
            count -= 1
            return count
        }
    }
}
