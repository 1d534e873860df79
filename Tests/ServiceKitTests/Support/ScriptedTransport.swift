import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import Locking

/// A transport double: answers each request with the next scripted step (the last step repeats), records
/// every request, counts cancellations, and announces each request as it starts.
final class ScriptedTransport: HTTPTransport {
    enum Step: Sendable {
        /// Reports each progress value, then returns the response.
        case respond(TransportResponse, progress: [UploadProgress] = [])
        /// Throws the error, as a transport does when no complete response arrived.
        case fail(any Error)
        /// Waits until the calling task is cancelled (at most 60 s), then throws `URLError(.cancelled)`
        /// as URLSession does.
        case hangUntilCancelled
    }

    private struct State {
        var steps: [Step]
        var requests: [URLRequest] = []
        var cancellations = 0
    }

    private let state: Lock<State>
    /// Yields the request count each time a request starts; await it instead of sleeping.
    let started: AsyncStream<Int>
    private let startedContinuation: AsyncStream<Int>.Continuation

    init(_ steps: [Step]) {
        precondition(!steps.isEmpty, "script at least one step")
        state = Lock(State(steps: steps))
        (started, startedContinuation) = AsyncStream.makeStream(of: Int.self)
    }

    convenience init(_ steps: Step...) {
        self.init(steps)
    }

    var requests: [URLRequest] { state.withLock { $0.requests } }
    var cancellations: Int { state.withLock { $0.cancellations } }

    func send(_ request: URLRequest, uploadProgress: UploadProgressHandler?) async throws -> TransportResponse {
        let (step, count) = state.withLock { state in
            state.requests.append(request)
            let step = state.steps.count > 1 ? state.steps.removeFirst() : state.steps[0]
            return (step, state.requests.count)
        }
        startedContinuation.yield(count)
        switch step {
        case .respond(let response, let progress):
            for report in progress {
                uploadProgress?(report)
            }
            return response
        case .fail(let error):
            throw error
        case .hangUntilCancelled:
            try? await withTaskCancellationHandler {
                try await Task.sleep(for: .seconds(60))
            } onCancel: {
                self.state.withLock { $0.cancellations += 1 }
            }
            throw URLError(.cancelled)
        }
    }
}
