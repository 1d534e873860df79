import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared
@testable import MockServer
@testable import MockServerWire
import Testing

/// The URLSession road to the upstream (any upstream but a numeric or `localhost` `http://` one) bounds each
/// silence of the upstream, not the whole exchange, as MockServer's own connections do. Time is the test's
/// clock, moved by hand, so a busy machine neither times out an exchange nor saves one.
@Suite struct UpstreamTaskRouterTests {
    /// Starts one GET of `path` on `upstream` through a router on `clock`, allowing `silence`; the body is
    /// passed piece by piece to the stream returned, so the test sees each piece arrive, and with `collecting`
    /// also collected into the completion (``UpstreamBodyRoute/collect(showingEach:)``).
    private func start(
        _ upstream: URL, _ path: String, silence: Duration, clock: HandMovedClock, collecting: Bool = false
    ) -> (completion: Task<UpstreamCompletion, Never>, pieces: AsyncStream<Data>) {
        let (pieces, sink) = AsyncStream<Data>.makeStream()
        let completion = Task {
            let router = UpstreamTaskRouter(clock: clock)
            let configuration = URLSessionConfiguration.ephemeral
            // Longer than any test, so that only the router can time the exchange out.
            configuration.timeoutIntervalForRequest = 300
            let session = URLSession(configuration: configuration, delegate: router.sessionDelegate, delegateQueue: nil)
            defer { session.invalidateAndCancel() }
            let task = session.dataTask(with: upstream.appendingPathComponent(path))
            let ended = await router.run(task, silence: silence) { _, _, _ in
                collecting ? .collect(showingEach: { sink.yield($0) }) : .stream { sink.yield($0) }
            }
            sink.finish()
            return ended
        }
        return (completion, pieces)
    }

    /// Reads pieces until they add up to `expected`; fails (rather than waits on) a stream that ends first.
    private func receive(_ expected: Data, from pieces: inout AsyncStream<Data>.Iterator) async -> Data {
        var received = Data()
        while received.count < expected.count, let piece = await pieces.next() { received += piece }
        return received
    }

    /// Serves `reply` to every request, and yields once for each request that arrived: after the router
    /// created the request's transfer, so from then on moving the clock counts for it.
    private func serving(_ reply: HTTPReply) -> (respond: @Sendable (HTTPRequest) -> HTTPReply, arrivals: AsyncStream<Void>) {
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        return (
            { _ in
                arrived.yield()
                return reply
            }, arrivals
        )
    }

    @Test func silentUpstream_endsAsTimedOut_onceTheSilenceHasPassed() async throws {
        let clock = HandMovedClock()
        let (respond, arrivals) = serving(.stall)
        try await withServer(respond: respond) { _, upstream in
            let (completion, _) = start(upstream, "silent", silence: .seconds(2), clock: clock)
            var arrived = arrivals.makeAsyncIterator()
            _ = await arrived.next()
            clock.advance(byNanoseconds: 1_999_999_999)
            #expect(clock.pendingTimers == 1, "one nanosecond early, the exchange still runs")
            clock.advance(byNanoseconds: 1)
            let ended = await completion.value
            #expect(ended.error?.code == URLError.Code.timedOut.rawValue)
            #expect(ended.error?.message == "The upstream sent nothing in time.")
            #expect(ended.head == nil)
        }
    }

    @Test func slowBody_completes_aslongAsItsBytesKeepComing() async throws {
        // GIVEN an upstream whose body comes in four pieces, 1.5 s apart on the router's clock: 6 s in all,
        // three times the 2 s the router allows, but never silent that long
        let clock = HandMovedClock()
        let stream = LiveStream(head: HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"]))
        try await withServer(respond: { _ in .live(stream) }) { _, upstream in
            let (completion, pieces) = start(upstream, "slow", silence: .seconds(2), clock: clock)
            var iterator = pieces.makeAsyncIterator()
            var body = Data()
            for number in 1...4 {
                let piece = Data("piece \(number);".utf8)
                stream.send(piece)
                body += await receive(piece, from: &iterator)
                clock.advance(byNanoseconds: 1_500_000_000)
            }
            stream.finish(.complete)
            // THEN the exchange completes with every piece
            let ended = await completion.value
            #expect(ended.error == nil, "\(String(describing: ended.error))")
            #expect(ended.head?.status == 200)
            #expect(ended.streamed)
            #expect(body == Data("piece 1;piece 2;piece 3;piece 4;".utf8))
        }
    }

    @Test func collectedBody_isShownPieceByPiece_andStillCompletesWhole() async throws {
        // GIVEN an upstream whose 10-byte body of declared length comes in two pieces
        let clock = HandMovedClock()
        let stream = LiveStream(head: HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"]), declaredLength: 10)
        try await withServer(respond: { _ in .live(stream) }) { _, upstream in
            let (completion, pieces) = start(upstream, "file", silence: .seconds(2), clock: clock, collecting: true)
            var iterator = pieces.makeAsyncIterator()
            // WHEN the first piece arrives
            stream.send(Data("01234".utf8))
            // THEN it is shown while the exchange still runs
            #expect(await receive(Data("01234".utf8), from: &iterator) == Data("01234".utf8))
            stream.send(Data("56789".utf8))
            stream.finish(.complete)
            // AND the completion holds the whole body, as a body collected without being shown
            let ended = await completion.value
            #expect(ended.error == nil, "\(String(describing: ended.error))")
            #expect(!ended.streamed)
            #expect(ended.body == Data("0123456789".utf8))
        }
    }

    @Test func silenceAfterSomeOfTheBody_endsAsTimedOut_twoSecondsAfterTheLastPiece() async throws {
        let clock = HandMovedClock()
        let stream = LiveStream(head: HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"]))
        let (respond, arrivals) = serving(.live(stream))
        try await withServer(respond: respond) { _, upstream in
            let (completion, pieces) = start(upstream, "stops", silence: .seconds(2), clock: clock)
            var arrived = arrivals.makeAsyncIterator()
            _ = await arrived.next()
            // GIVEN a piece 1.5 s after the start
            clock.advance(byNanoseconds: 1_500_000_000)
            let piece = Data("first;".utf8)
            stream.send(piece)
            var iterator = pieces.makeAsyncIterator()
            let received = await receive(piece, from: &iterator)
            // THEN 3.49 s after the start the exchange still runs, and 2 s after the piece it has timed out
            clock.advance(byNanoseconds: 1_990_000_000)
            #expect(clock.pendingTimers == 1)
            clock.advance(byNanoseconds: 10_000_000)
            let ended = await completion.value
            #expect(received == piece)
            #expect(ended.error?.code == URLError.Code.timedOut.rawValue)
            #expect(ended.streamed)
            stream.finish(.complete)
        }
    }
}

/// A clock that moves only when the test moves it: each timer runs, in order, with ``now`` at its deadline,
/// on the thread that moved the clock; a timer set for a time already passed runs at once.
final class HandMovedClock: SilenceClock {
    private struct State {
        var now: UInt64 = 1_000_000_000
        var timers: [(deadline: UInt64, work: @Sendable () -> Void)] = []
    }

    private let state = Lock(State())

    var now: UInt64 { state.withLock { $0.now } }

    /// How many timers wait for the clock to reach them.
    var pendingTimers: Int { state.withLock { $0.timers.count } }

    func schedule(at deadline: UInt64, _ work: @escaping @Sendable () -> Void) {
        let due = state.withLock { state -> Bool in
            guard deadline > state.now else { return true }
            state.timers.append((deadline, work))
            return false
        }
        if due { work() }
    }

    /// Moves the clock on, running each timer that falls due on the way (and any they set meanwhile).
    func advance(byNanoseconds step: UInt64) {
        let target = state.withLock { $0.now + step }
        for _ in 0..<1000 {  // a bound: each timer runs once
            let due = state.withLock { state -> (@Sendable () -> Void)? in
                guard let index = state.timers.indices.min(by: { state.timers[$0].deadline < state.timers[$1].deadline }),
                    state.timers[index].deadline <= target
                else { return nil }
                let timer = state.timers.remove(at: index)
                state.now = timer.deadline
                return timer.work
            }
            guard let due else { break }
            due()
        }
        state.withLock { $0.now = target }
    }
}
