/// Answers requests for an ``HTTPServer``.
///
/// Both methods are called on an event-loop thread shared with other connections and servers, so they
/// must return quickly and never block: answer inline with an ``HTTPReply`` for work that is immediate
/// (the replay fast path), or return ``HTTPReply/deferred(_:)`` or ``HTTPReply/async(_:)`` for work that
/// waits (forwarding to an upstream). Calls for one connection are never concurrent. ``reply(to:context:)`` is also
/// called on a client's own thread for a request answered without a connection
/// (``HTTPServer/replyInProcess(to:)``, with ``HTTPRequestContext/inProcess``), concurrently with the loops.
package protocol HTTPHandler: Sendable {
    /// The reply to one complete request (its body fully read and de-chunked).
    func reply(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPReply

    /// Decides what to do with a newly accepted connection before anything is read from it.
    /// The default accepts every connection.
    func admission(for connection: HTTPConnectionInfo) -> HTTPAdmission
}

extension HTTPHandler {
    /// Accepts every connection.
    package func admission(for connection: HTTPConnectionInfo) -> HTTPAdmission {
        .accept
    }
}

/// An ``HTTPHandler`` made from a closure, for ``HTTPServer/init(configuration:respond:)``.
struct ClosureHandler: HTTPHandler {
    let respond: @Sendable (HTTPRequest, HTTPRequestContext) -> HTTPReply

    func reply(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPReply {
        respond(request, context)
    }
}

/// What the server does with a connection it has just accepted, before reading anything.
package enum HTTPAdmission: Sendable, Hashable {
    /// Serve the connection.
    case accept
    /// Close it at once (FIN) without reading: a refused connection.
    case close
    /// Reset it at once (RST) without reading.
    case reset
}

/// Facts about one accepted client connection.
package struct HTTPConnectionInfo: Sendable, Hashable {
    /// A number unique among this server's connections, starting at 1 in accept order.
    let id: UInt64
    /// The client's numeric IP address (`127.0.0.1`, `::1`).
    package let remoteAddress: String
    /// The client's TCP port.
    let remotePort: Int

    /// Creates connection facts (the server does this).
    init(id: UInt64, remoteAddress: String, remotePort: Int) {
        self.id = id
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
    }
}

/// Where a request came from, passed to ``HTTPHandler/reply(to:context:)``.
package struct HTTPRequestContext: Sendable, Hashable {
    /// The connection the request arrived on.
    package let connection: HTTPConnectionInfo
    /// The request's position on its connection: 0 for the first, 1 for the next keep-alive or pipelined one.
    let requestIndex: Int

    /// Creates a context (the server does this).
    init(connection: HTTPConnectionInfo, requestIndex: Int) {
        self.connection = connection
        self.requestIndex = requestIndex
    }
}
