import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking

/// What one data task ended with, copied out of URLSession's objects inside the delegate callback.
/// Decides, when the first bytes of a body arrive, whether the body is passed on as it arrives: given the
/// status and header fields, returns where each piece of the body goes, or `nil` to collect it whole.
typealias UpstreamStreamDecision = @Sendable (_ status: Int, _ fields: [(name: String, value: String)]) -> (@Sendable (Data) -> Void)?

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

/// The session delegate of ``UpstreamClient``. Every task's callbacks arrive here and are routed by task
/// identifier: per-task delegates are never called on Linux, and completion-handler tasks follow redirects
/// there without asking. Redirects are refused, so the client gets the upstream's 3xx as it was.
final class UpstreamTaskRouter: NSObject, URLSessionDataDelegate, Sendable {
    private struct TaskState {
        var body = Data()
        var continuation: CheckedContinuation<UpstreamCompletion, Never>?
        var decision: UpstreamStreamDecision?
        var sink: (@Sendable (Data) -> Void)?
    }

    private let tasks = Lock<[Int: TaskState]>([:])

    /// Starts `task` and returns how it ended. Never throws: failures come back in the completion. When
    /// `decision` gives a sink for the body, the body goes there piece by piece instead of into the completion.
    func run(_ task: URLSessionDataTask, decision: UpstreamStreamDecision? = nil) async -> UpstreamCompletion {
        await withCheckedContinuation { continuation in
            tasks.withLock { $0[task.taskIdentifier] = TaskState(continuation: continuation, decision: decision) }
            task.resume()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        // The delegate queue is serial: callbacks of one task never overlap, so deciding outside the lock is safe.
        let (sink, decision) = tasks.withLock { tasks -> ((@Sendable (Data) -> Void)?, UpstreamStreamDecision?) in
            guard var state = tasks[id] else { return (nil, nil) }
            if let sink = state.sink { return (sink, nil) }
            guard let decision = state.decision else {
                state.body.append(data)
                tasks[id] = state
                return (nil, nil)
            }
            state.decision = nil
            tasks[id] = state
            return (nil, decision)
        }
        if let sink {
            sink(data)
            return
        }
        guard let decision else { return }
        var chosen: (@Sendable (Data) -> Void)?
        if let response = dataTask.response as? HTTPURLResponse {
            chosen = decision(response.statusCode, response.allHeaderFields.map { (name: "\($0.key)", value: "\($0.value)") })
        }
        tasks.withLock { tasks in
            if let chosen { tasks[id]?.sink = chosen } else { tasks[id]?.body.append(data) }
        }
        chosen?(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        var completion = UpstreamCompletion(head: nil, body: state.body, error: nil, streamed: state.sink != nil)
        if let error {
            let error = error as NSError
            completion.error = (error.domain == NSURLErrorDomain ? error.code : URLError.Code.unknown.rawValue, error.localizedDescription)
        } else if let response = task.response as? HTTPURLResponse {
            let fields = response.allHeaderFields.map { (name: "\($0.key)", value: "\($0.value)") }
            completion.head = (response.statusCode, fields)
        } else {
            completion.error = (URLError.Code.badServerResponse.rawValue, "The upstream's answer was not an HTTP response.")
        }
        state.continuation?.resume(returning: completion)
    }
}
