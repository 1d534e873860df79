import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

/// The default ``HTTPTransport``: one `URLSession` of its own, with ServiceKit's delegate.
///
/// The session is made when the first request is sent, so a client that never sends (one built only to read
/// its configuration) costs no session. It lives as long as the transport: `deinit` calls
/// `finishTasksAndInvalidate()`, because an unvalidated session keeps its delegate and (on Linux) its threads
/// forever. Cancelling the calling task cancels the `URLSessionTask`, which ends the call with
/// `URLError.cancelled`.
///
/// A request's `timeoutInterval` is the longest wait for progress (bytes sent or received), and the
/// transport keeps it itself, to the millisecond: past it the call fails with `URLError.timedOut`.
/// URLSession gets a looser timeout (twice as long, rounded up to whole seconds, plus one), because
/// FoundationNetworking cuts its timeout to whole seconds: 0.5 s would fail at once, 1.5 s after 1 s. A request
/// a client on a `VirtualClock` sends to a replay server on that clock times out on the clock instead, and
/// URLSession's timeout (at least 60 s then) is only a backstop.
public final class URLSessionTransport: HTTPTransport {
    private let lazySession: LazySession
    private let router: SessionTaskRouter

    /// A transport over a new session made from `configuration` (ephemeral by default: no cookies, cache or
    /// credentials persist between runs). The configuration is copied; changing it later has no effect.
    /// In an app under UI test whose start-up activated `MockServerAppRouting`, the session sends its requests
    /// to the test's server like every other session of the app.
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        // Redirects are followed, as URLSession does by default.
        router = SessionTaskRouter(followsRedirects: true)
        // An app under UI test (MockServerAppRouting active) routes ServiceKit's sessions too; on Linux nothing
        // global reaches a session made from a configuration, so it is added here.
        lazySession = LazySession(configuration: configuration, delegate: router, prepare: { ProcessRouting.route($0) })
    }

    private var session: URLSession { lazySession.session }

    /// Sends `request` as a data task and returns the complete response; throws the `URLError` the session
    /// reports. A body in `httpBody` is uploaded with progress: URLSession reports `didSendBodyData` for
    /// data tasks with a body on Darwin and on Linux alike (checked on Linux with a raw socket server).
    public func send(_ request: URLRequest, uploadProgress: UploadProgressHandler?) async throws -> TransportResponse {
        let (loosened, timeout) = Self.timing(request)
        return try await WholeTransfer.run(
            session.dataTask(with: loosened), through: router, timeout: timeout,
            uploadProgress: uploadProgress)
    }

    /// Sends `request` as a data task and returns once the first bytes of the body (or the end of a
    /// response without one) arrived; the rest of the body follows chunk by chunk as URLSession receives
    /// it. Ending the body's iteration (cancelling its task, or dropping it) cancels the data task, which
    /// closes the connection.
    public func stream(_ request: URLRequest) async throws -> StreamedResponse {
        let (loosened, timeout) = Self.timing(request)
        return try await StreamedTransfer.start(session.dataTask(with: loosened), through: router, timeout: timeout)
    }

    /// The transport's own timeout for `request` (`nil` when its `timeoutInterval` is not a positive
    /// number), and the request with URLSession's timeout set well past it, so that only ours ever fires.
    static func timing(_ request: URLRequest) -> (request: URLRequest, timeout: Duration?) {
        let interval = request.timeoutInterval
        guard interval > 0, interval.isFinite else { return (request, nil) }
        // A transfer on a virtual clock times out on that clock (the client cancels it); URLSession's own
        // timeout stays a distant backstop, so a busy machine never ends it first.
        if PairedTransfer.isPaired(request) {
            var loosened = request
            loosened.timeoutInterval = max(60, (min(interval, 1e9) * 2).rounded(.up) + 1)
            return (loosened, nil)
        }
        // About 31 years: beyond it a timeout means "never", and stays in range of every clock.
        let seconds = min(interval, 1e9)
        var loosened = request
        loosened.timeoutInterval = (seconds * 2).rounded(.up) + 1
        return (loosened, .seconds(seconds))
    }
}
