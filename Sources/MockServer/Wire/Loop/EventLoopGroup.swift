import Foundation
import ServiceReplayLocking

/// The event loops that serve every ``HTTPServer`` in the process: started lazily on first use, one per
/// core, and shared so that dozens of servers (one per parallel test) cost no extra threads.
final class EventLoopGroup: Sendable {
    let loops: [EventLoop]

    /// The process-wide group: one loop per active processor (at least 1, at most 16).
    static let shared = EventLoopGroup(loopCount: ProcessInfo.processInfo.activeProcessorCount)

    init(loopCount: Int, backend: PollerBackend = .automatic) {
        let count = min(max(loopCount, 1), 16)
        loops = (0..<count).map { EventLoop(backend: backend, name: "MockServerLoop\($0)") }
    }

    /// Runs `job` on every loop, then `completion` on the last loop to finish; does not wait.
    func onEveryLoop(_ job: @escaping @Sendable (EventLoop) -> Void, then completion: @escaping @Sendable () -> Void) {
        let remaining = Countdown(loops.count)
        for loop in loops {
            loop.execute {
                job(loop)
                if remaining.decrement() == 0 { completion() }
            }
        }
    }

    /// Runs `job` on every loop and returns when all have finished it.
    func onEveryLoop(_ job: @escaping @Sendable (EventLoop) -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            onEveryLoop(job, then: { continuation.resume() })
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
