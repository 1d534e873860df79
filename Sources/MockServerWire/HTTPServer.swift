import Foundation
import ServiceReplayShared

/// An HTTP/1.1 server on POSIX sockets, for tests: loopback and an ephemeral port by default.
///
/// All servers in a process share one set of event-loop threads (one per core, started on first use),
/// so dozens can run side by side. Connections support keep-alive, pipelining (answered in order),
/// `Content-Length` and chunked request bodies, `Expect: 100-continue`, HEAD and HTTP/1.0. Requests
/// beyond the limits in ``Configuration`` are answered 400, 408, 413, 417, 431 or 505 and closed.
///
/// ```swift
/// let server = HTTPServer { request in .response(status: 200, body: Data("hi".utf8)) }
/// let baseURL = try await server.start()   // http://127.0.0.1:PORT
/// defer { Task { await server.stop() } }
/// ```
package final class HTTPServer: Sendable {
    private enum Lifecycle {
        case idle
        case running(ServerContext, URL)
        case stopping(Task<Void, Never>)
        case stopped
    }

    /// The configuration the server was created with.
    let configuration: Configuration
    let handler: any HTTPHandler
    /// `Server: name\r\n`, or empty: what ``head(of:isHEAD:streamed:)`` adds, as the connections do.
    let serverLine: [UInt8]
    /// The `Date` line of answers given in-process, formatted once per second.
    let dateCache = Lock(HTTPDateCache())
    private let group: EventLoopGroup
    private let onDescriptorsExhausted: (@Sendable () -> Void)?
    private let onRejection: (@Sendable (RejectedRequest) -> Void)?
    private let lifecycle = Lock(Lifecycle.idle)

    /// Creates a server that answers with `handler`; nothing is bound until ``start()``.
    package convenience init(configuration: Configuration = Configuration(), handler: any HTTPHandler) {
        self.init(configuration: configuration, handler: handler, group: .shared)
    }

    /// Creates a server that answers every request with `respond` (called on an event-loop thread; see
    /// ``HTTPHandler`` for what it may do there).
    package convenience init(configuration: Configuration = Configuration(), respond: @escaping @Sendable (HTTPRequest) -> HTTPReply) {
        self.init(configuration: configuration, handler: ClosureHandler { request, _ in respond(request) }, group: .shared)
    }

    /// `onDescriptorsExhausted` is called, on an event-loop thread, when accepting fails because the process
    /// has no file descriptor left; see ``ServerContext/noteDescriptorsExhausted()``. `onRejection` is called,
    /// on an event-loop thread, for each request the server answers itself (400, 408, 413, 417, 431, 505).
    package init(
        configuration: Configuration, handler: any HTTPHandler, group: EventLoopGroup,
        onDescriptorsExhausted: (@Sendable () -> Void)? = nil, onRejection: (@Sendable (RejectedRequest) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.handler = handler
        self.group = group
        self.onDescriptorsExhausted = onDescriptorsExhausted
        self.onRejection = onRejection
        serverLine = ServerContext.serverLine(of: configuration)
    }

    deinit {
        // A server dropped without stop(): close its listener and connections in the background.
        if case .running(let context, _) = lifecycle.withLock({ $0 }) {
            group.onEveryLoop({ $0.detach(context) }, then: { Sys.close(context.listener) })
        }
    }

    /// Binds, listens, and returns the base URL (`http://127.0.0.1:PORT`, or `http://[::1]:PORT`) once
    /// connections are being accepted. Calling it again while running returns the same URL.
    /// - Throws: ``MockServerError`` when the host is invalid, the port cannot be bound, or the server
    ///   was already stopped.
    @discardableResult
    package func start() async throws -> URL {
        let (context, url, isNew) = try lifecycle.withLock { state throws(MockServerError) -> (ServerContext, URL, Bool) in
            switch state {
            case .running(let context, let url):
                return (context, url, false)
            case .stopping, .stopped:
                throw MockServerError.stopped
            case .idle:
                if let failure = group.startFailure { throw failure }
                let (context, url) = try listen()
                state = .running(context, url)
                return (context, url, true)
            }
        }
        if isNew {
            await group.on(group.acceptingLoops()) { $0.attach(context) }
        }
        return url
    }

    private func listen() throws(MockServerError) -> (ServerContext, URL) {
        guard let address = SocketAddress(host: configuration.host, port: configuration.port) else {
            throw .invalidHost(configuration.host)
        }
        let backlog = Int32(clamping: max(1, configuration.listenBacklog))
        switch Sys.listen(on: address, backlog: backlog) {
        case .failure(let failure):
            throw .cannotListen(host: configuration.host, port: configuration.port, failure: failure)
        case .success(let (fd, port)):
            let host = address.isIPv6 ? "[\(address.host)]" : address.host
            let context = ServerContext(
                listener: fd, handler: handler, configuration: configuration,
                onDescriptorsExhausted: onDescriptorsExhausted, onRejection: onRejection)
            return (context, URL(string: "http://\(host):\(port)")!)
        }
    }

    /// Stops accepting, closes every connection at once (including stalled ones and those waiting for
    /// a deferred answer, whose responders are cancelled), and returns when that is done. Safe to call
    /// more than once and concurrently; later calls wait for the first to finish.
    package func stop() async {
        let task: Task<Void, Never>? = lifecycle.withLock { state in
            switch state {
            case .idle:
                state = .stopped
                return nil
            case .stopped:
                return nil
            case .stopping(let task):
                return task
            case .running(let context, _):
                let group = group
                let task = Task {
                    await group.onEveryLoop { $0.detach(context) }
                    Sys.close(context.listener)
                }
                state = .stopping(task)
                return task
            }
        }
        guard let task else { return }
        await task.value
        lifecycle.withLock { state in
            if case .stopping = state { state = .stopped }
        }
    }

    /// The base URL while running (`nil` before ``start()`` and after ``stop()``).
    package var baseURL: URL? {
        lifecycle.withLock { state in
            if case .running(_, let url) = state { return url }
            return nil
        }
    }

    /// The bound port while running, or `nil`.
    var port: Int? {
        baseURL?.port
    }

    /// How many connections were accepted since it started (0 when not running).
    package var acceptedConnectionCount: UInt64 {
        lifecycle.withLock { state in
            if case .running(let context, _) = state { return context.acceptedConnectionCount }
            return 0
        }
    }

    /// How many connections are open right now (0 when not running).
    package var openConnectionCount: Int {
        lifecycle.withLock { state in
            if case .running(let context, _) = state { return context.openConnectionCount }
            return 0
        }
    }
}
