import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ServiceReplayShared
import Testing

/// A transport double for streams: answers `stream` with the given head and a body the test feeds chunk
/// by chunk (or ends, or breaks), records the request, and notes when the client stops the transfer.
final class StreamingTransport: HTTPTransport {
    let statusCode: Int
    let headers: ResponseHeaders
    /// Handed over on the first call and not kept: the client's dropping it must be able to end it.
    private let body: Lock<AsyncThrowingStream<Data, any Error>?>
    private let chunks: AsyncThrowingStream<Data, any Error>.Continuation
    private let state = Lock((requests: [URLRequest](), stopped: false))
    /// Yields once when the client stops the transfer early (cancels or drops the body).
    let stops: AsyncStream<Void>
    private let stopsContinuation: AsyncStream<Void>.Continuation

    init(status: Int = 200, headers: ResponseHeaders = ["Content-Type": "text/event-stream"]) {
        statusCode = status
        self.headers = headers
        let (body, chunks) = AsyncThrowingStream<Data, any Error>.makeStream()
        self.body = Lock(body)
        self.chunks = chunks
        (stops, stopsContinuation) = AsyncStream.makeStream()
        chunks.onTermination = { [state, stopsContinuation] termination in
            if case .cancelled = termination {
                state.withLock { $0.stopped = true }
                stopsContinuation.yield()
            }
        }
    }

    var requests: [URLRequest] { state.withLock { $0.requests } }
    var stopped: Bool { state.withLock { $0.stopped } }

    /// Sends `text` as the next chunk of the body.
    func send(_ text: String) {
        chunks.yield(Data(text.utf8))
    }

    /// Ends the body normally.
    func end() {
        chunks.finish()
    }

    /// Breaks the body with `error`.
    func fail(_ error: any Error) {
        chunks.finish(throwing: error)
    }

    func send(_ request: URLRequest, uploadProgress: UploadProgressHandler?) async throws -> TransportResponse {
        Issue.record("a streaming call must use stream(_:)")
        throw URLError(.unsupportedURL)
    }

    func stream(_ request: URLRequest) async throws -> StreamedResponse {
        state.withLock { $0.requests.append(request) }
        guard let body = body.withLock({ $0.take() }) else {
            throw URLError(.resourceUnavailable)
        }
        return StreamedResponse(statusCode: statusCode, headers: headers, body: body, url: request.url)
    }
}
