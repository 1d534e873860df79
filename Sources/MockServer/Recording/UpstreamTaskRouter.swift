import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

/// Decides, when the head of a response arrives, whether its body is passed on as it arrives: given the
/// status and header fields, and a way to cancel the exchange (when nobody wants the rest of the body),
/// returns where each piece of the body goes, or `nil` to collect it whole.
typealias UpstreamStreamDecision =
    @Sendable (
        _ status: Int, _ fields: [(name: String, value: String)],
        _ cancel: @escaping @Sendable () -> Void
    ) -> UpstreamBodyRoute?

/// Where the pieces of a response body go as they arrive (see ``UpstreamStreamDecision``).
enum UpstreamBodyRoute: Sendable {
    /// Each piece goes to the sink instead of the answer's body, which comes back empty: a stream, decoded
    /// as it arrives when it has a content coding, and cut by ``UpstreamForwarder/cancelStreams()``.
    case stream(@Sendable (Data) -> Void)
    /// Each piece is collected into the answer's body as when nothing was decided, and is also shown to
    /// the observer as it arrived, before any content decoding. The exchange ends as it would have, and is
    /// not a stream: ``UpstreamForwarder/cancelStreams()`` lets it finish.
    case collect(showingEach: @Sendable (Data) -> Void)
}

/// What one data task ended with, copied out of URLSession's objects inside the delegate callback.
struct UpstreamCompletion: Sendable {
    /// The status and header fields, when a response arrived.
    var head: (status: Int, fields: [(name: String, value: String)])?
    /// The body bytes, decoded by URLSession when they came compressed.
    var body: Data
    /// The `NSURLErrorDomain` code and message when the task failed.
    var error: (code: Int, message: String)?
    /// Whether the body was passed on as it arrived (and so is not in ``body``).
    var streamed = false
}

/// The clock an upstream transfer measures its silence by: the machine's uptime and Dispatch's timers in use,
/// a clock the test moves by hand in tests, so that "silent too long" never depends on how busy the machine is.
protocol SilenceClock: Sendable {
    /// Nanoseconds since an arbitrary fixed point; never goes back.
    var now: UInt64 { get }
    /// Calls `work` once, on some thread, when ``now`` has reached `deadline`.
    func schedule(at deadline: UInt64, _ work: @escaping @Sendable () -> Void)
}

/// The machine's uptime and Dispatch's global queue.
struct UptimeSilenceClock: SilenceClock {
    var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    func schedule(at deadline: UInt64, _ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global().asyncAfter(deadline: DispatchTime(uptimeNanoseconds: deadline), execute: work)
    }
}

/// Runs the data tasks of ``UpstreamForwarder``'s session. Its ``sessionDelegate`` is the session's delegate,
/// which routes every task's callbacks to that task's ``UpstreamTransfer``. Redirects are refused, so the
/// client gets the upstream's 3xx as it was.
final class UpstreamTaskRouter: Sendable {
    /// The delegate to give the session whose tasks this router runs.
    let sessionDelegate = SessionTaskRouter(followsRedirects: false)
    /// Set by ``cancelStreams()``: a body that starts streaming from now on is cancelled at once.
    private let streamsCancelled = Lock(false)
    private let clock: any SilenceClock

    /// A router measuring each task's silence by `clock`.
    init(clock: any SilenceClock = UptimeSilenceClock()) {
        self.clock = clock
    }

    /// Starts `task` and returns how it ended. Never throws: failures come back in the completion. When
    /// `decision` gives a sink for the body, the body goes there piece by piece instead of into the completion.
    /// The task is cancelled and ends as timed out once `silence` passed without a byte of its answer; a body
    /// may last as long as its pieces keep coming.
    func run(_ task: URLSessionDataTask, silence: Duration, decision: UpstreamStreamDecision? = nil) async -> UpstreamCompletion {
        await withCheckedContinuation { continuation in
            let transfer = UpstreamTransfer(
                task: task, continuation: continuation, decision: decision,
                streamsCancelled: streamsCancelled, clock: clock)
            sessionDelegate.route(task, to: transfer)
            task.resume()
            transfer.expire(after: silence)
        }
    }

    /// Cancels every task whose body is streaming, and any whose body starts streaming later: they end
    /// with URLSession's cancellation error, after the pieces already passed on.
    func cancelStreams() {
        // Set before looking at the tasks: a body that starts streaming meanwhile reads it after installing its
        // sink, so each one is cancelled here or there.
        streamsCancelled.withLock { $0 = true }
        for case let transfer as UpstreamTransfer in sessionDelegate.handlers {
            transfer.cancelIfStreaming()
        }
    }
}

/// One upstream data task: collects its body, or passes it on as it arrives, and hands over how it ended.
/// Its state lives behind one lock; the decision, the sink and the continuation are called outside it.
final class UpstreamTransfer: SessionTaskHandler {
    private struct State {
        var body = Data()
        var continuation: CheckedContinuation<UpstreamCompletion, Never>?
        var decision: UpstreamStreamDecision?
        var sink: (@Sendable (Data) -> Void)?
        /// Shown each piece that is also collected into `body` (see ``UpstreamBodyRoute/collect(showingEach:)``).
        var observer: (@Sendable (Data) -> Void)?
        /// Cancelled because the upstream was silent too long: it ends as timed out.
        var timedOut = false
        /// When the last byte of the answer arrived (or the task started), by the transfer's clock.
        var lastByte: UInt64 = 0
    }

    private let task: URLSessionDataTask
    private let state: Lock<State>
    private let streamsCancelled: Lock<Bool>
    private let clock: any SilenceClock

    init(
        task: URLSessionDataTask, continuation: CheckedContinuation<UpstreamCompletion, Never>,
        decision: UpstreamStreamDecision?, streamsCancelled: Lock<Bool>, clock: any SilenceClock
    ) {
        self.task = task
        state = Lock(State(continuation: continuation, decision: decision, lastByte: clock.now))
        self.streamsCancelled = streamsCancelled
        self.clock = clock
    }

    /// Cancels the task, to end as timed out, once `silence` passed since the last byte of its answer arrived;
    /// looks again when bytes came meanwhile, and stops looking when the task completed.
    func expire(after silence: Duration) {
        let nanoseconds = UInt64(DurationSpelling.seconds(silence) * 1e9)
        let start = state.withLock { $0.lastByte }
        clock.schedule(at: start &+ nanoseconds) { [weak self] in self?.check(silence: nanoseconds) }
    }

    /// What a look at the transfer's silence found.
    private enum SilenceVerdict {
        case completed
        case tooLong
        case lookAgain(at: UInt64)
    }

    /// Cancels the task if no byte came for `silence` nanoseconds, else looks again that long after the last.
    private func check(silence nanoseconds: UInt64) {
        let now = clock.now
        let verdict = state.withLock { state -> SilenceVerdict in
            guard state.continuation != nil else { return .completed }
            let due = state.lastByte &+ nanoseconds
            guard now >= due else { return .lookAgain(at: due) }
            state.timedOut = true
            return .tooLong
        }
        switch verdict {
        case .completed: break
        case .tooLong: task.cancel()
        case .lookAgain(let due): clock.schedule(at: due) { [weak self] in self?.check(silence: nanoseconds) }
        }
    }

    /// Cancels the task if its body is streaming and it has not completed.
    func cancelIfStreaming() {
        if state.withLock({ $0.continuation != nil && $0.sink != nil }) { task.cancel() }
    }

    func task(_ task: URLSessionDataTask, receivedResponse response: URLResponse) {
        // Deciding when the head arrives lets a stream's head reach the client before its first event.
        decide()
    }

    func task(_ task: URLSessionDataTask, received data: Data) {
        let now = clock.now  // read before the lock: a clock may have a lock of its own
        let (passOn, undecided) = state.withLock { state -> ((@Sendable (Data) -> Void)?, Bool) in
            guard state.continuation != nil else { return (nil, false) }
            state.lastByte = now
            if let sink = state.sink { return (sink, false) }
            if state.decision != nil { return (nil, true) }
            state.body.append(data)  // in place: the body is not copied for each piece
            return (state.observer, false)
        }
        if let passOn {
            passOn(data)
        } else if undecided {
            // The head's callback did not come: decide now, then route these bytes as decided.
            decide()
            let passOn = state.withLock { state -> (@Sendable (Data) -> Void)? in
                if let sink = state.sink { return sink }
                state.body.append(data)
                return state.observer
            }
            passOn?(data)
        }
    }

    /// Asks the task's decision, once, whether its body streams, and installs the sink it gives. The delegate
    /// queue is serial: callbacks of one task never overlap, so deciding outside the lock is safe.
    private func decide() {
        guard
            let decision = state.withLock({ state -> UpstreamStreamDecision? in
                defer { state.decision = nil }
                return state.decision
            }), let response = task.response as? HTTPURLResponse
        else { return }
        let fields = ProxyHeaders.urlSessionFields(response.allHeaderFields)
        switch decision(response.statusCode, fields, { [task] in task.cancel() }) {
        case .stream(let sink)?:
            state.withLock { $0.sink = sink }
            if streamsCancelled.withLock({ $0 }) { task.cancel() }
        case .collect(let observer)?:
            state.withLock { $0.observer = observer }
        case nil:
            break
        }
    }

    func task(_ task: URLSessionTask, completedWith error: (any Error)?) {
        guard
            let (continuation, ended) = state.withLock({ state -> (CheckedContinuation<UpstreamCompletion, Never>, State)? in
                guard let continuation = state.continuation else { return nil }
                // What the completion needs moves out; the transfer keeps nothing once it completed.
                defer { state = State() }
                return (continuation, state)
            })
        else { return }
        var completion = UpstreamCompletion(head: nil, body: ended.body, error: nil, streamed: ended.sink != nil)
        if ended.timedOut {
            completion.error = (URLError.Code.timedOut.rawValue, "The upstream sent nothing in time.")
        } else if let error {
            let error = error as NSError
            completion.error = (error.domain == NSURLErrorDomain ? error.code : URLError.Code.unknown.rawValue, error.localizedDescription)
        } else if let response = task.response as? HTTPURLResponse {
            let fields = ProxyHeaders.urlSessionFields(response.allHeaderFields)
            completion.head = (response.statusCode, fields)
        } else {
            completion.error = (URLError.Code.badServerResponse.rawValue, "The upstream's answer was not an HTTP response.")
        }
        continuation.resume(returning: completion)
    }
}
