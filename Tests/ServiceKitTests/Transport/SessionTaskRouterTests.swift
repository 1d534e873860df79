import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared
import Testing

/// The package's one URLSession delegate (ServiceReplayShared's `SessionTaskRouter`), over real sessions whose
/// protocol answers in-process. A task routed to the wrong handler leaves its own handler waiting for good: the
/// time limit ends that as a failure.
@Suite(.timeLimit(.minutes(1))) struct SessionTaskRouterTests {
    /// Records what one routed task heard, and says when it completed.
    private final class HeardEvents: SessionTaskHandler {
        private let heard = Lock((status: Int?.none, body: Data(), errorCode: Int?.none))
        let completed: AsyncStream<Void>
        private let completedContinuation: AsyncStream<Void>.Continuation

        init() {
            (completed, completedContinuation) = AsyncStream.makeStream()
        }

        var status: Int? { heard.withLock { $0.status } }
        var body: Data { heard.withLock { $0.body } }
        var errorCode: Int? { heard.withLock { $0.errorCode } }

        func task(_ task: URLSessionDataTask, receivedResponse response: URLResponse) {
            heard.withLock { $0.status = (response as? HTTPURLResponse)?.statusCode }
        }

        func task(_ task: URLSessionDataTask, received data: Data) {
            heard.withLock { $0.body.append(data) }
        }

        func task(_ task: URLSessionTask, completedWith error: (any Error)?) {
            heard.withLock { $0.errorCode = (error as? URLError)?.code.rawValue }
            completedContinuation.yield()
            completedContinuation.finish()
        }
    }

    @Test func oneRouterForTwoSessions_routesEachTaskToItsOwnHandler() async throws {
        // Given one router as the delegate of two sessions, whose first tasks may well share a task identifier
        let router = SessionTaskRouter(followsRedirects: false)
        let (_, first) = StubURLProtocol.register(.respond(status: 200, headers: [:], body: Data("first".utf8)))
        let (_, second) = StubURLProtocol.register(.respond(status: 201, headers: [:], body: Data("second".utf8)))
        let sessions = (0..<2).map { _ in URLSession(configuration: StubURLProtocol.configuration, delegate: router, delegateQueue: nil) }
        defer { sessions.forEach { $0.finishTasksAndInvalidate() } }
        let tasks = [sessions[0].dataTask(with: first), sessions[1].dataTask(with: second)]
        let handlers = [HeardEvents(), HeardEvents()]
        // When each task is routed to its own handler and both run
        for (task, handler) in zip(tasks, handlers) { router.route(task, to: handler) }
        tasks.forEach { $0.resume() }
        for handler in handlers { for await _ in handler.completed {} }
        // Then each handler heard its own task's answer, whole, and its completion
        #expect(handlers.map(\.status) == [200, 201])
        #expect(handlers.map(\.body) == [Data("first".utf8), Data("second".utf8)])
        #expect(handlers.map(\.errorCode) == [nil, nil])
        // And completed tasks are forgotten
        #expect(router.handlers.isEmpty)
    }

    @Test func routedTask_isListedUntilItCompletes() async throws {
        // Given a routed task the server never answers
        let router = SessionTaskRouter(followsRedirects: true)
        let (stub, url) = StubURLProtocol.register(.hang)
        let session = URLSession(configuration: StubURLProtocol.configuration, delegate: router, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: url)
        let handler = HeardEvents()
        router.route(task, to: handler)
        task.resume()
        for await _ in stub.started { break }
        // Then its handler is listed while it runs
        #expect(router.handlers.map { ObjectIdentifier($0) } == [ObjectIdentifier(handler)])
        // When it is cancelled, then its handler hears URLError.cancelled and is no longer listed
        task.cancel()
        for await _ in handler.completed {}
        #expect(handler.errorCode == URLError.Code.cancelled.rawValue)
        #expect(router.handlers.isEmpty)
    }
}
