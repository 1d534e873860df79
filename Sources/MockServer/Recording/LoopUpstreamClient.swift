import Foundation
import ServiceReplayShared

/// An answer over the recorder's own connection: the head as it arrived and the body with the transfer framing
/// removed (but not any content coding); the body is empty when `streamed`, because the pieces went to the
/// stream decision's sink.
struct LoopUpstreamAnswer: Sendable {
    let head: UpstreamResponseHead
    let body: Data
    let streamed: Bool
}

/// Sends requests to an `http://` upstream with a numeric address (or `localhost`) over MockServer's own
/// sockets, on its event loops (``UpstreamConnection``s, kept alive between exchanges in an ``UpstreamPool``
/// per loop): no thread waits on the upstream, and the response head arrives as the upstream wrote it, in
/// order, repeats kept. Any other upstream goes through URLSession (see ``UpstreamForwarder``).
///
/// It writes the request it is given byte for byte and does no content decoding; ``UpstreamForwarder``
/// builds the requests and decodes the bodies.
final class LoopUpstreamClient: Sendable {
    let address: SocketAddress
    /// The upstream's base URL, for error messages.
    let upstreamDescription: String
    /// One pool per loop of the group, in the group's order.
    private let pools: [UpstreamPool]
    private let counters = Lock(Counters())
    private let cancelledStreams = Lock(false)
    private let invalidated = Lock(false)

    /// Round-robin position over the loops, and the next exchange's id.
    private struct Counters {
        var nextLoop = 0
        var nextExchange: UInt64 = 0
    }

    /// A client for `upstream`, or `nil` when it is not `http://` with a numeric host or `localhost`.
    init?(upstream: Upstream, group: EventLoopGroup = .shared) {
        guard upstream.url.scheme?.lowercased() == "http", let host = upstream.url.host,
            let address = SocketAddress(host: host, port: UInt16(upstream.url.port ?? 80))
        else { return nil }
        self.address = address
        upstreamDescription = upstream.description
        pools = group.loops.map(UpstreamPool.init(loop:))
    }

    /// Whether ``cancelStreams()`` was called.
    var streamsCancelled: Bool { cancelledStreams.withLock { $0 } }

    /// Whether ``invalidate()`` was called.
    var isInvalidated: Bool { invalidated.withLock { $0 } }

    /// Writes `request` (a whole HTTP/1.1 request) and reads the answer. `expectsBody` is false for `HEAD`.
    /// `timeout` bounds each silence of the upstream: the exchange fails as timed out when no byte moved for
    /// that long.
    func send(_ request: [UInt8], expectsBody: Bool, timeout: Duration, decision: UpstreamStreamDecision?) async -> UpstreamOutcome<LoopUpstreamAnswer> {
        guard !isInvalidated else {
            return .unreachable(TransportFailure(kind: .refused, message: "The recording server is stopping; nothing more is sent to \(upstreamDescription)."))
        }
        let (poolIndex, id) = counters.withLock { counters in
            defer {
                counters.nextLoop = (counters.nextLoop + 1) % pools.count
                counters.nextExchange &+= 1
            }
            return (counters.nextLoop, counters.nextExchange)
        }
        let pool = pools[poolIndex]
        let nanos = UInt64(max(DurationSpelling.seconds(timeout), 0.001) * 1e9)
        return await withCheckedContinuation { continuation in
            pool.loop.execute { [self] in
                let exchange = UpstreamExchange(
                    id: id, request: request, expectsBody: expectsBody, timeout: nanos, now: Sys.monotonicNanos(),
                    decision: decision
                ) { continuation.resume(returning: $0) }
                pool.start(exchange, for: self)
            }
        }
    }

    /// How a connection that could not be made (`errno` `code`) is recorded: refused.
    func connectFailure(_ code: Int32) -> TransportFailure {
        TransportFailure(kind: .refused, message: "Could not connect to \(upstreamDescription): \(Sys.describe(code)).")
    }

    /// Cuts every body streaming now or later: its ``send(_:expectsBody:timeout:decision:)`` returns a failure
    /// after the pieces already passed on.
    func cancelStreams() {
        cancelledStreams.withLock { $0 = true }
        for pool in pools {
            pool.loop.execute { pool.close(cuttingStreams: true) }
        }
    }

    /// Closes the idle connections; exchanges in flight finish, and later sends fail at once.
    func invalidate() {
        invalidated.withLock { $0 = true }
        for pool in pools {
            pool.loop.execute { pool.close(cuttingStreams: false) }
        }
    }
}
