import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking

/// What one data task ended with, copied out of URLSession's objects inside the delegate callback.
struct UpstreamCompletion: Sendable {
    /// The status and header fields, when a response arrived.
    var head: (status: Int, fields: [(name: String, value: String)])?
    /// The body bytes, decoded by URLSession when they came compressed.
    var body: Data
    /// The `NSURLErrorDomain` code and message when the task failed.
    var error: (code: Int, message: String)?
}

/// The session delegate of ``UpstreamClient``. Every task's callbacks arrive here and are routed by task
/// identifier: per-task delegates are never called on Linux, and completion-handler tasks follow redirects
/// there without asking. Redirects are refused, so the client gets the upstream's 3xx as it was.
final class UpstreamTaskRouter: NSObject, URLSessionDataDelegate, Sendable {
    private struct TaskState {
        var body = Data()
        var continuation: CheckedContinuation<UpstreamCompletion, Never>?
    }

    private let tasks = Lock<[Int: TaskState]>([:])

    /// Starts `task` and returns how it ended. Never throws: failures come back in the completion.
    func run(_ task: URLSessionDataTask) async -> UpstreamCompletion {
        await withCheckedContinuation { continuation in
            tasks.withLock { $0[task.taskIdentifier] = TaskState(continuation: continuation) }
            task.resume()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        tasks.withLock { $0[dataTask.taskIdentifier]?.body.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        var completion = UpstreamCompletion(head: nil, body: state.body, error: nil)
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
