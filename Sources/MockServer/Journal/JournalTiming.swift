import Foundation

/// How long a journaled request took: the server's own time to choose its answer, and the delay it gave the
/// answer on purpose before the first byte (a latency fault). What the control API shows as an entry's `timing`.
struct JournalTiming: Sendable, Hashable {
    /// From the request's arrival, whole, to the answer chosen: for a replayed request the engine's (and the
    /// fault plan's) work; for a forwarded one the upstream exchange, to its answer's end.
    var duration: Duration
    /// The delay the answer was given before its first byte on purpose; zero without a latency fault.
    var delay: Duration

    /// Neither measured nor delayed: an entry a test appended itself.
    static let zero = JournalTiming(duration: .zero, delay: .zero)

    /// The timing of an answer chosen since `start`, sent as `reply`.
    init(since start: ContinuousClock.Instant, reply: HTTPReply) {
        duration = ContinuousClock.now - start
        delay = .nanoseconds(Self.delayNanoseconds(of: reply))
    }

    init(duration: Duration, delay: Duration) {
        self.duration = duration
        self.delay = delay
    }

    /// The delays `reply` waits before its first byte, added up (a throttle adds none before it).
    private static func delayNanoseconds(of reply: HTTPReply) -> UInt64 {
        switch reply.action {
        case .delayed(let nanoseconds, let inner): nanoseconds &+ delayNanoseconds(of: inner)
        case .throttled(_, let inner): delayNanoseconds(of: inner)
        default: 0
        }
    }
}
