import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ServiceKitTesting
import ServiceReplayShared
import Testing

@Suite struct CancellationTests {
    /// Collects completion calls so a test can assert there was exactly one.
    final class Completions: Sendable {
        private let results = Lock<[Result<JSONValue, WebServiceError>]>([])
        let delivered: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation

        init() {
            (delivered, continuation) = AsyncStream.makeStream()
        }

        func record(_ result: Result<JSONValue, WebServiceError>) {
            results.withLock { $0.append(result) }
            continuation.yield()
        }

        var all: [Result<JSONValue, WebServiceError>] { results.withLock { $0 } }
    }

    @Test func completionHandler_cancel_reachesTransportAndCompletesCancelledOnce() async {
        // Given a call in flight that only ends when cancelled
        let transport = ScriptedTransport(.hangUntilCancelled)
        let completions = Completions()
        let handle = makeClient(transport).send(EchoService()) { completions.record($0) }
        for await _ in transport.started { break }
        // When it is cancelled twice
        handle.cancel()
        handle.cancel()
        for await _ in completions.delivered { break }
        // Then the transport saw one cancellation and the completion ran once, with cancelled
        #expect(handle.isCancelled)
        #expect(transport.cancellations == 1)
        #expect(completions.all.count == 1)
        #expect(throws: WebServiceError.network(.cancelled)) { try completions.all.first?.get() }
    }

    @Test func completionHandler_cancelAfterCompletion_changesNothing() async {
        let transport = ScriptedTransport(.json(["a": 1]))
        let completions = Completions()
        let handle = makeClient(transport).send(EchoService()) { completions.record($0) }
        for await _ in completions.delivered { break }
        handle.cancel()
        #expect(completions.all.count == 1)
        #expect((try? completions.all.first?.get()) == ["a": 1])
        #expect(transport.cancellations == 0)
    }

    @Test func async_cancellingTheTask_throwsCancelledAndCancelsTransport() async {
        // Given an async call in flight
        let transport = ScriptedTransport(.hangUntilCancelled)
        let client = makeClient(transport)
        let task = Task { try await client.send(EchoService()) }
        for await _ in transport.started { break }
        // When the task is cancelled
        task.cancel()
        let result = await task.result
        // Then the call ends as cancelled and the transport saw the cancellation
        #expect(throws: WebServiceError.network(.cancelled)) { try result.get() }
        #expect(transport.cancellations == 1)
    }

    @Test func async_alreadyCancelled_neverReachesTransport() async {
        let transport = ScriptedTransport(.json([:]))
        let client = makeClient(transport)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(EchoService())
        }
        await #expect(throws: WebServiceError.network(.cancelled)) { try await task.value }
        #expect(transport.requests.isEmpty)
    }
}
