import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayLocking

/// What one data task ended with, copied out of URLSession's objects inside the delegate callback.
/// Decides, when the head of a response arrives, whether its body is passed on as it arrives: given the
/// status and header fields, and a way to cancel the exchange (when nobody wants the rest of the body),
/// returns where each piece of the body goes, or `nil` to collect it whole.
typealias UpstreamStreamDecision = @Sendable (_ status: Int, _ fields: [(name: String, value: String)],
                                              _ cancel: @escaping @Sendable () -> Void) -> (@Sendable (Data) -> Void)?

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

/// The session delegate of ``UpstreamForwarder``. Every task's callbacks arrive here and are routed by task
/// identifier: per-task delegates are never called on Linux, and completion-handler tasks follow redirects
/// there without asking. Redirects are refused, so the client gets the upstream's 3xx as it was.
final class UpstreamTaskRouter: NSObject, URLSessionDataDelegate, Sendable {
    private struct TaskState {
        let task: URLSessionDataTask
        var body = Data()
        var continuation: CheckedContinuation<UpstreamCompletion, Never>?
        var decision: UpstreamStreamDecision?
        var sink: (@Sendable (Data) -> Void)?
        /// Cancelled because its deadline passed: it ends as timed out.
        var timedOut = false
    }

    private struct State {
        var tasks: [Int: TaskState] = [:]
        /// Set by ``cancelStreams()``: a body that starts streaming from now on is cancelled at once.
        var streamsCancelled = false
    }

    private let state = Lock(State())

    /// Starts `task` and returns how it ended. Never throws: failures come back in the completion. When
    /// `decision` gives a sink for the body, the body goes there piece by piece instead of into the completion.
    /// Unless its body streams, the task is cancelled and ends as timed out after `deadline`; a streamed body
    /// may last as long as its pieces keep coming (URLSession's request timeout bounds the gaps between them).
    func run(_ task: URLSessionDataTask, deadline: Duration, decision: UpstreamStreamDecision? = nil) async -> UpstreamCompletion {
        let id = task.taskIdentifier
        return await withCheckedContinuation { continuation in
            state.withLock { $0.tasks[id] = TaskState(task: task, continuation: continuation, decision: decision) }
            task.resume()
            DispatchQueue.global().asyncAfter(deadline: .now() + DurationSpelling.seconds(deadline)) { [weak self] in
                let expired = self?.state.withLock { state -> URLSessionDataTask? in
                    guard var entry = state.tasks[id], entry.sink == nil else { return nil }
                    entry.timedOut = true
                    state.tasks[id] = entry
                    return entry.task
                }
                expired?.cancel()
            }
        }
    }

    /// Cancels every task whose body is streaming, and any whose body starts streaming later: they end
    /// with URLSession's cancellation error, after the pieces already passed on.
    func cancelStreams() {
        let streaming = state.withLock { state in
            state.streamsCancelled = true
            return state.tasks.values.filter { $0.sink != nil }.map(\.task)
        }
        for task in streaming { task.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        // Deciding when the head arrives lets a stream's head reach the client before its first event.
        decide(dataTask)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        let (sink, undecided) = state.withLock { state -> ((@Sendable (Data) -> Void)?, Bool) in
            guard let entry = state.tasks[id] else { return (nil, false) }
            if let sink = entry.sink { return (sink, false) }
            if entry.decision != nil { return (nil, true) }
            state.tasks[id]?.body.append(data) // in place: the body is not copied for each piece
            return (nil, false)
        }
        if let sink {
            sink(data)
        } else if undecided {
            // The head's callback did not come: decide now, then route these bytes as decided.
            decide(dataTask)
            let sink = state.withLock { state -> (@Sendable (Data) -> Void)? in
                if let sink = state.tasks[id]?.sink { return sink }
                state.tasks[id]?.body.append(data)
                return nil
            }
            sink?(data)
        }
    }

    /// Asks the task's decision, once, whether its body streams, and installs the sink it gives. The delegate
    /// queue is serial: callbacks of one task never overlap, so deciding outside the lock is safe.
    private func decide(_ dataTask: URLSessionDataTask) {
        let id = dataTask.taskIdentifier
        guard let decision = state.withLock({ state -> UpstreamStreamDecision? in
            defer { state.tasks[id]?.decision = nil }
            return state.tasks[id]?.decision
        }), let response = dataTask.response as? HTTPURLResponse else { return }
        let fields = ProxyHeaders.urlSessionFields(response.allHeaderFields)
        guard let sink = decision(response.statusCode, fields, { dataTask.cancel() }) else { return }
        let cancelled = state.withLock { state in
            state.tasks[id]?.sink = sink
            return state.streamsCancelled
        }
        if cancelled { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = state.withLock({ $0.tasks.removeValue(forKey: task.taskIdentifier) }) else { return }
        var completion = UpstreamCompletion(head: nil, body: entry.body, error: nil, streamed: entry.sink != nil)
        if entry.timedOut {
            completion.error = (URLError.Code.timedOut.rawValue, "The upstream did not answer in time.")
        } else if let error {
            let error = error as NSError
            completion.error = (error.domain == NSURLErrorDomain ? error.code : URLError.Code.unknown.rawValue, error.localizedDescription)
        } else if let response = task.response as? HTTPURLResponse {
            let fields = ProxyHeaders.urlSessionFields(response.allHeaderFields)
            completion.head = (response.statusCode, fields)
        } else {
            completion.error = (URLError.Code.badServerResponse.rawValue, "The upstream's answer was not an HTTP response.")
        }
        entry.continuation?.resume(returning: completion)
    }
}
