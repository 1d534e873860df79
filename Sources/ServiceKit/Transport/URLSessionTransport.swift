import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default ``HTTPTransport``: one `URLSession` of its own, with ServiceKit's delegate.
///
/// The session lives as long as the transport: `deinit` calls `finishTasksAndInvalidate()`, because an
/// unvalidated session keeps its delegate and (on Linux) its threads forever. Cancelling the calling task
/// cancels the `URLSessionTask`, which ends the call with `URLError.cancelled`.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let router: SessionTaskRouter

    /// A transport over a new session made from `configuration` (ephemeral by default: no cookies, cache or
    /// credentials persist between runs). The configuration is copied; changing it later has no effect.
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        let router = SessionTaskRouter()
        self.router = router
        self.session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` as a data task and returns the complete response; throws the `URLError` the session
    /// reports. A body in `httpBody` is uploaded with progress: URLSession reports `didSendBodyData` for
    /// data tasks with a body on Darwin and on Linux alike (checked on Linux with a raw socket server).
    public func send(_ request: URLRequest, uploadProgress: UploadProgressHandler?) async throws -> TransportResponse {
        return try await router.run(session.dataTask(with: request), uploadProgress: uploadProgress)
    }

    /// Sends `request` as a data task and returns once the first bytes of the body (or the end of a
    /// response without one) arrived; the rest of the body follows chunk by chunk as URLSession receives
    /// it. Ending the body's iteration (cancelling its task, or dropping it) cancels the data task, which
    /// closes the connection.
    public func stream(_ request: URLRequest) async throws -> StreamedResponse {
        try await router.stream(session.dataTask(with: request))
    }
}
