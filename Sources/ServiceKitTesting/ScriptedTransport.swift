import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ServiceReplayShared

/// A transport double for testing code that uses a ``ServiceKit/WebServiceClient`` without a network or a server:
/// answers each request with the next scripted step (the last step repeats forever), records every request,
/// counts cancellations, and announces each request as it starts.
///
/// ```swift
/// let transport = ScriptedTransport(.respond(TransportResponse(statusCode: 200, body: Data(#"{"ok":true}"#.utf8))))
/// let client = WebServiceClient(baseURL: URL(string: "https://api.example.com")!, transport: transport)
/// ```
///
/// Safe to use from several tasks at once.
public final class ScriptedTransport: HTTPTransport {
    /// One scripted answer.
    public enum Step: Sendable {
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
    /// Yields the request count (1 for the first) each time a request starts; await it instead of sleeping.
    public let started: AsyncStream<Int>
    private let startedContinuation: AsyncStream<Int>.Continuation

    /// A transport that answers with `steps` in order, then repeats the last. Traps when `steps` is empty.
    public init(_ steps: [Step]) {
        precondition(!steps.isEmpty, "script at least one step")
        state = Lock(State(steps: steps))
        (started, startedContinuation) = AsyncStream.makeStream(of: Int.self)
    }

    /// A transport that answers with `steps` in order, then repeats the last. Traps when `steps` is empty.
    public convenience init(_ steps: Step...) {
        self.init(steps)
    }

    /// Every request sent so far, in order.
    public var requests: [URLRequest] { state.withLock { $0.requests } }
    /// How many `hangUntilCancelled` steps were cancelled.
    public var cancellations: Int { state.withLock { $0.cancellations } }

    /// Records `request`, then carries out the next step: reports its progress and returns its response,
    /// throws its error, or waits to be cancelled and throws `URLError(.cancelled)`.
    public func send(_ request: URLRequest, uploadProgress: UploadProgressHandler?) async throws -> TransportResponse {
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
