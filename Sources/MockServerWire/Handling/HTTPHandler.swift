/// Answers requests for an ``HTTPServer``.
///
/// Both methods are called on an event-loop thread shared with other connections and servers, so they
/// must return quickly and never block: answer inline with an ``HTTPReply`` for work that is immediate
/// (the replay fast path), or return ``HTTPReply/deferred(_:)`` or ``HTTPReply/async(_:)`` for work that
/// waits (forwarding to an upstream). Calls for one connection are never concurrent.
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
