import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one URLSession task hears of its session's delegate callbacks, once a ``SessionTaskRouter`` routes
/// the task to it. Every method is called on the session's delegate queue (serial: one task's callbacks never
/// overlap), outside the router's lock, so it may take its own lock or call back into the router. Each
/// default does nothing: a handler implements what it needs.
package protocol SessionTaskHandler: AnyObject, Sendable {
    /// The response head arrived; the router lets the body follow (`.allow`) after this returns.
    func task(_ task: URLSessionDataTask, receivedResponse response: URLResponse)
    /// Body bytes arrived, in order.
    func task(_ task: URLSessionDataTask, received data: Data)
    /// Body bytes were sent: `totalBytesSent` so far of `totalBytesExpected` (`-1` when unknown).
    func task(_ task: URLSessionTask, sentBodyBytes totalBytesSent: Int64, of totalBytesExpected: Int64)
    /// The task ended, with the session's error or `nil` when it completed. The last call for the task:
    /// the router has already forgotten it.
    func task(_ task: URLSessionTask, completedWith error: (any Error)?)
}

/// The defaults: a handler hears only the events it implements.
extension SessionTaskHandler {
    package func task(_ task: URLSessionDataTask, receivedResponse response: URLResponse) {}
    package func task(_ task: URLSessionDataTask, received data: Data) {}
    package func task(_ task: URLSessionTask, sentBodyBytes totalBytesSent: Int64, of totalBytesExpected: Int64) {}
    package func task(_ task: URLSessionTask, completedWith error: (any Error)?) {}
}

/// The package's one URLSession delegate: it hands each task's callbacks to the handler the task was routed
/// to. Routing goes by task on the session delegate because per-task delegates are never called on Linux (and
/// completion-handler tasks get no upload progress and follow redirects without asking there).
///
/// Tasks are keyed by identity, not `taskIdentifier`, so that one router may serve several sessions (whose
/// identifiers repeat); a routed task is held until it completes, so its identity is never reused meanwhile.
/// The table is the only state behind the router's lock, and handlers are called outside it.
package final class SessionTaskRouter: NSObject, URLSessionDataDelegate, Sendable {
    private struct Route {
        let task: URLSessionTask
        let handler: any SessionTaskHandler
    }

    private let routes = Lock<[ObjectIdentifier: Route]>([:])
    private let followsRedirects: Bool

    /// A router for sessions whose tasks follow redirects as URLSession does by default, or (`false`) refuse
    /// them, so that the 3xx itself is the task's response.
    package init(followsRedirects: Bool) {
        self.followsRedirects = followsRedirects
    }

    /// Sends `task`'s callbacks to `handler` until it completes. Call it before resuming (or cancelling)
    /// `task`, so that no callback comes before the route exists.
    package func route(_ task: URLSessionTask, to handler: any SessionTaskHandler) {
        routes.withLock { $0[ObjectIdentifier(task)] = Route(task: task, handler: handler) }
    }

    /// Forgets `task` without telling its handler: for a routed task that will never be resumed.
    package func unroute(_ task: URLSessionTask) {
        routes.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(task)) }
    }

    /// The handlers of every task routed and not yet completed, in no particular order.
    package var handlers: [any SessionTaskHandler] {
        routes.withLock { $0.values.map(\.handler) }
    }

    private func handler(of task: URLSessionTask) -> (any SessionTaskHandler)? {
        routes.withLock { $0[ObjectIdentifier(task)]?.handler }
    }

    package func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        handler(of: dataTask)?.task(dataTask, receivedResponse: response)
        completionHandler(.allow)
    }

    package func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        handler(of: dataTask)?.task(dataTask, received: data)
    }

    package func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        handler(of: task)?.task(task, sentBodyBytes: totalBytesSent, of: totalBytesExpectedToSend)
    }

    package func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(followsRedirects ? request : nil)
    }

    package func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let route = routes.withLock { $0.removeValue(forKey: ObjectIdentifier(task)) }
        route?.handler.task(task, completedWith: error)
    }
}
