import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How routed requests travel: through loopback sessions whose delegate hands each task's events to its
/// ``LoopbackExchange``, which passes them to the protocol instance that started it. It follows no
/// redirects: a 3xx reaches the client as the server sent it.
///
/// One copy for both kinds of routing: MockServer's `HostRoutingProtocol` (a test's own sessions) and the
/// app side's protocol (every session of an app under UI test, `MockServerAppRouting`), which must not
/// depend on MockServer.
package final class HostRouter: Sendable {
    package static let shared = HostRouter()

    /// Whether a routing protocol takes `request`: every `http` and `https` one, so that a request that cannot
    /// reach the server fails rather than reaching the real network.
    package static func routes(_ request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// The delegate of every loopback session; one for all of them, since it routes by task.
    private let tasks = SessionTaskRouter(followsRedirects: false)

    /// The header that carries the authority the client asked for to the server, which puts it back as
    /// `Host` (``HTTPRequest/restoringRoutedHost()``): Apple's URLSession reserves `Host` and may replace the
    /// value set on a request with the loopback address, where libcurl sends it as set. MockServer's
    /// `HTTPRequest.routedHostHeader` is this name.
    package static let hostHeader = "X-MockServer-Host"

    /// The header that carries, on a loopback request, the token of a reply the server already decided in the
    /// client's process and that only the socket can deliver (MockServer's `HandedOverReplies`).
    package static let replyHeader = "X-MockServer-Reply"

    /// `request` addressed to `server` (a base URL): same method, path, query, headers
    /// (``routedHeaderFields(for:sessionHeaders:cookies:)``) and body (`body` when already read, else the
    /// request's), with `Host` left to URLSession, which writes the server's loopback address: a server answers
    /// only a loopback `Host` unless told otherwise, and on Linux a `Host` set here would reach it; `nil` when the
    /// URL cannot be rebuilt. The timeout is ``timeout(of:sessionTimeout:)``.
    package static func loopbackRequest(
        for request: URLRequest, to server: URL, sessionTimeout: TimeInterval,
        sessionHeaders: [String: String], cookies: RoutedCookies? = nil, body: Data? = nil
    ) -> URLRequest? {
        guard let url = request.url, let base = URLComponents(url: server, resolvingAgainstBaseURL: false),
            var target = URLComponents(url: url, resolvingAgainstBaseURL: true)
        else { return nil }
        target.scheme = base.scheme
        target.host = base.host
        target.port = base.port
        target.user = nil
        target.password = nil
        target.fragment = nil
        guard let loopbackURL = target.url else { return nil }
        var routed = URLRequest(
            url: loopbackURL, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout(of: request, sessionTimeout: sessionTimeout))
        routed.httpMethod = request.httpMethod
        routed.allHTTPHeaderFields = routedHeaderFields(for: request, sessionHeaders: sessionHeaders, cookies: cookies)
        routed.httpBody = body ?? self.body(of: request)
        routed.httpShouldHandleCookies = false
        return routed
    }

    /// The header fields a routed `request` reaches the server with: its own; the session's additional headers
    /// (`sessionHeaders`) where it does not set the same header, as URLSession adds them (a `URLProtocol`'s
    /// request lacks them: a token set there, say); the `Cookie` the session's `cookies` hold for its URL (see
    /// ``RoutedCookies``); no `Host`; and the authority the client asked for in ``hostHeader`` (the server puts
    /// it back as `Host`, so that matching and recording see it).
    package static func routedHeaderFields(for request: URLRequest, sessionHeaders: [String: String], cookies: RoutedCookies?) -> [String: String] {
        var fields = request.allHTTPHeaderFields ?? [:]
        for (name, value) in sessionHeaders where request.value(forHTTPHeaderField: name) == nil {
            fields[name] = value
        }
        if let cookie = cookies?.header(for: request) {
            fields["Cookie"] = cookie
        }
        for name in fields.keys where ["host", hostHeader.lowercased()].contains(name.lowercased()) {
            fields[name] = nil
        }
        fields[hostHeader] = request.url.map(authority) ?? ""
        return fields
    }

    /// The host and port `url` names, as a `Host` header writes them (`api.example.test:8443`).
    private static func authority(of url: URL) -> String {
        (url.host ?? "") + (url.port.map { ":\($0)" } ?? "")
    }

    /// The timeout of a routed `request`: its own when it set one, else the session's (`sessionTimeout`), as a
    /// direct request's would be.
    package static func timeout(of request: URLRequest, sessionTimeout: TimeInterval) -> TimeInterval {
        request.timeoutInterval == defaultTimeout ? sessionTimeout : request.timeoutInterval
    }

    /// A request's timeout when it sets none.
    private static let defaultTimeout = URLRequest(url: URL(fileURLWithPath: "/")).timeoutInterval

    /// The body of `request`: its `httpBody`, or its `httpBodyStream` read to the end (a stream reads once).
    package static func body(of request: URLRequest) -> Data? {
        request.httpBody ?? request.httpBodyStream.map(readAll)
    }

    private static func readAll(_ stream: InputStream) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        stream.open()
        defer { stream.close() }
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }

    /// Starts sending `routing`'s request to `destination` and returns the exchange to cancel in `stopLoading`;
    /// or, when there is no destination (the server stopped), the URL cannot be rebuilt or the body cannot be
    /// read, fails the protocol's client and returns `nil`. Never sends the request anywhere else: a routed
    /// request that cannot reach its server fails, it does not reach the real network. Call it from
    /// `startLoading`.
    package func forward(_ routing: URLProtocol, to destination: LoopbackDestination?) -> LoopbackExchange? {
        guard !Self.refusesHiddenUploadBody(routing) else { return nil }
        guard let destination,
            let routed = Self.loopbackRequest(
                for: routing.request, to: destination.baseURL, sessionTimeout: destination.timeout, sessionHeaders: destination.headers,
                cookies: destination.cookies)
        else {
            routing.failLoading(.cannotConnectToHost)
            return nil
        }
        return forward(routed, for: routing, to: destination)
    }

    /// Sends `routed` (``loopbackRequest(for:to:sessionTimeout:sessionHeaders:cookies:)`` of `routing`'s request)
    /// to `destination`, as ``forward(_:to:)`` does; with `replyToken`, without its body and with the token in
    /// ``replyHeader``: the server answers with the reply it already decided for it.
    package func forward(
        _ routed: URLRequest, for routing: URLProtocol, to destination: LoopbackDestination, replyToken: String? = nil
    ) -> LoopbackExchange? {
        var routed = routed
        if let replyToken {
            routed.setValue(replyToken, forHTTPHeaderField: Self.replyHeader)
            routed.httpBody = nil
        }
        guard let session = destination.sessions.session(timeout: routed.timeoutInterval) else {
            routing.failLoading(.cannotConnectToHost)
            return nil
        }
        return start(routed, in: session, for: routing, originalURL: routing.request.url ?? destination.baseURL, cookies: destination.cookies)
    }

    /// Fails `routing` and returns `true` when it is an upload task whose body the protocol cannot read:
    /// FoundationNetworking keeps it where a URLProtocol cannot (Darwin hands it over as `httpBodyStream`), and
    /// sending the request without it would make a wrong recording or a baffling miss.
    package static func refusesHiddenUploadBody(_ routing: URLProtocol) -> Bool {
        let request = routing.request
        guard routing.task is URLSessionUploadTask, request.httpBody == nil, request.httpBodyStream == nil else { return false }
        routing.failLoading(
            .unsupportedURL,
            "a routed session cannot read the body of this upload task, since \(URLSessionQuirks.sessionName) does not hand it to a URLProtocol; set the request's httpBody and use a data task"
        )
        return true
    }

    /// Sends `request` (already addressed to the server) through `session` for `routing`, whose client gets
    /// the events as if for `originalURL`, the answer's cookies stored in `cookies`. Returns at once; the
    /// exchange can be cancelled before the request left.
    package func start(
        _ request: URLRequest, in session: URLSession, for routing: URLProtocol, originalURL: URL, cookies: RoutedCookies?
    ) -> LoopbackExchange {
        let exchange = LoopbackExchange(routing: routing, originalURL: originalURL, cookies: cookies)
        // On Linux every session's work queue has the same target, and `startLoading` runs on one of them:
        // making a task from there waits on the queue it runs on, which traps. So the task is made elsewhere.
        DispatchQueue.global().async { [self] in
            let task = session.dataTask(with: request)
            tasks.route(task, to: exchange)
            if exchange.attach(task) {
                task.resume()
            } else {
                tasks.unroute(task)
            }
        }
        return exchange
    }

    /// A loopback session whose requests time out after `timeout` seconds (FoundationNetworking times a
    /// request out after its session's `timeoutIntervalForRequest`, whatever the request says).
    package func makeSession(timeout: TimeInterval) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        // Where the app side adds its protocol to every configuration (Darwin), the loopback session must
        // not route its own requests again.
        ProcessRouting.exclude(from: configuration)
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = 7 * 24 * 3600
        return URLSession(configuration: configuration, delegate: tasks, delegateQueue: nil)
    }
}

/// Where a routed request goes, and what of its configuration it takes along.
package struct LoopbackDestination {
    /// The running server's base URL.
    package let baseURL: URL
    /// The routed configuration's `timeoutIntervalForRequest`.
    package let timeout: TimeInterval
    /// The routed configuration's `httpAdditionalHeaders`: a `URLProtocol` does not see them in its request
    /// on Apple platforms (nor on Linux), yet the session would have sent them.
    package let headers: [String: String]
    /// The loopback sessions the request travels through.
    package let sessions: LoopbackSessions
    /// The routed session's cookies, or `nil` when it keeps none.
    package let cookies: RoutedCookies?

    /// A destination of these parts.
    package init(baseURL: URL, timeout: TimeInterval, headers: [String: String], sessions: LoopbackSessions, cookies: RoutedCookies?) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.headers = headers
        self.sessions = sessions
        self.cookies = cookies
    }
}

extension URLProtocol {
    /// Tells the client the request failed with `code`, about the URL it asked for, and why when `reason` is given.
    package func failLoading(_ code: URLError.Code, _ reason: String? = nil) {
        var userInfo: [String: Any] = [:]
        userInfo[NSURLErrorFailingURLErrorKey] = request.url
        userInfo[NSLocalizedDescriptionKey] = reason
        client?.urlProtocol(self, didFailWithError: URLError(code, userInfo: userInfo))
    }
}

/// The loopback sessions of one routed configuration, one per request timeout, made when first needed. They
/// belong to one server: ``invalidate()``, called when it stops, ends them, and with them every connection
/// they opened to it, so a suite of thousands of routed tests holds no descriptor for a finished one.
package final class LoopbackSessions: Sendable {
    /// `nil` once invalidated.
    private let sessions = Lock<[TimeInterval: URLSession]?>([:])

    /// None yet: each is made when a request first needs its timeout.
    package init() {}

    /// The session for `timeout`; `nil` once ``invalidate()`` was called (the server stopped).
    package func session(timeout: TimeInterval) -> URLSession? {
        sessions.withLock { sessions in
            guard sessions != nil else { return nil }
            if let session = sessions?[timeout] { return session }
            let created = HostRouter.shared.makeSession(timeout: timeout)
            sessions?[timeout] = created
            return created
        }
    }

    /// Lets each session finish its tasks (they fail once the server has closed their connections), then
    /// ends it; later requests get no session. Safe to call more than once.
    package func invalidate() {
        let ended = sessions.withLock { sessions in
            defer { sessions = nil }
            return sessions.map { Array($0.values) } ?? []
        }
        ended.forEach { $0.finishTasksAndInvalidate() }
    }

    deinit {
        invalidate()
    }
}

/// One routed request: the protocol instance whose client hears of it, and the loopback task once made. It
/// handles the loopback task's events, passing them to that client as if about the URL the client asked for.
/// Unchecked because `URLProtocol` is not `Sendable`: the exchange only hands the instance to its client,
/// through ``deliver(_:)``.
package final class LoopbackExchange: SessionTaskHandler, @unchecked Sendable {
    private enum State {
        case starting
        case running(URLSessionDataTask)
        case cancelled
    }

    package let routing: URLProtocol
    package let originalURL: URL
    /// Where the answer's `Set-Cookie` goes, before the client hears of the answer (as URLSession stores them).
    private let cookies: RoutedCookies?
    private let state = Lock<State>(.starting)
    /// The thread that called `startLoading`, the only one that may call the protocol's client (Darwin).
    private let clientThread = URLProtocolClientThread()
    /// The body so far, when the client hears only a last load (``URLSessionQuirks/hearsEveryLoad(_:)``); `nil`
    /// when each part is passed on as it arrives.
    private let wholeBody: Lock<Data>?

    /// Made in `startLoading`, on the thread the client's callbacks must be made on.
    package init(routing: URLProtocol, originalURL: URL, cookies: RoutedCookies?) {
        self.routing = routing
        self.originalURL = originalURL
        self.cookies = cookies
        wholeBody = URLSessionQuirks.hearsEveryLoad(routing.task) ? nil : Lock(Data())
    }

    /// Calls the protocol's client (`work(client, protocol)`) on the thread that ran `startLoading`
    /// (``URLProtocolClientThread``), unless the exchange was cancelled by then: URLSession stopped the load
    /// itself and wants no word from it afterwards. On Darwin `stopLoading` runs on that same thread, so an
    /// event already queued there when the load stopped is dropped too.
    package func deliver(_ work: @escaping @Sendable (any URLProtocolClient, URLProtocol) -> Void) {
        clientThread.perform { [self] in
            guard !isCancelled, let client = routing.client else { return }
            work(client, routing)
        }
    }

    /// Records the loopback task; `false` when the exchange was cancelled first (the task must not start).
    package func attach(_ task: URLSessionDataTask) -> Bool {
        state.withLock { state in
            guard case .starting = state else { return false }
            state = .running(task)
            return true
        }
    }

    /// Whether ``cancel()`` was called.
    package var isCancelled: Bool {
        state.withLock { state in
            if case .cancelled = state { return true }
            return false
        }
    }

    package func task(_ task: URLSessionDataTask, receivedResponse response: URLResponse) {
        let http = response as? HTTPURLResponse
        if let cookies, let fields = http?.allHeaderFields {
            cookies.store(fields, from: originalURL, for: routing.request)
        }
        let shown =
            HTTPURLResponse(
                url: originalURL, statusCode: http?.statusCode ?? 200, httpVersion: "HTTP/1.1",
                headerFields: http?.allHeaderFields as? [String: String]) ?? response
        deliver { $0.urlProtocol($1, didReceive: shown, cacheStoragePolicy: .notAllowed) }
    }

    package func task(_ task: URLSessionDataTask, received data: Data) {
        if let wholeBody {
            wholeBody.withLock { $0.append(data) }
        } else {
            deliver { $0.urlProtocol($1, didLoad: data) }
        }
    }

    package func task(_ task: URLSessionTask, completedWith error: (any Error)?) {
        if let error {
            // The same code the client would get talking to the server directly, about the URL it asked for.
            let code = (error as? URLError)?.code ?? .unknown
            let shown = URLError(code, userInfo: [NSURLErrorFailingURLErrorKey: originalURL])
            deliver { $0.urlProtocol($1, didFailWithError: shown) }
        } else {
            if let body = wholeBody?.withLock({ $0 }), !body.isEmpty {
                deliver { $0.urlProtocol($1, didLoad: body) }
            }
            deliver { $0.urlProtocolDidFinishLoading($1) }
        }
    }

    /// Cancels the loopback task, or keeps it from starting.
    package func cancel() {
        let task = state.withLock { state -> URLSessionDataTask? in
            defer { state = .cancelled }
            if case .running(let task) = state { return task }
            return nil
        }
        // As in `HostRouter.start`: this runs on the routed session's work queue, and cancelling a task of
        // another session from there would wait on that very queue.
        if let task {
            DispatchQueue.global().async { task.cancel() }
        }
    }
}
