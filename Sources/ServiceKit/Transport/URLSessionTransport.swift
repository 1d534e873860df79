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

    /// Sends `request` as an upload task when it has a body (so progress is reported) and as a data task
    /// otherwise. Throws the `URLError` the session reports.
    public func send(_ request: URLRequest, uploadProgress: UploadProgressHandler?) async throws -> TransportResponse {
        let task: URLSessionTask
        if let body = request.httpBody {
            var bodiless = request
            bodiless.httpBody = nil
            task = session.uploadTask(with: bodiless, from: body)
        } else {
            task = session.dataTask(with: request)
        }
        return try await router.run(task, uploadProgress: uploadProgress)
    }
}
