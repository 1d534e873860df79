/// Where a request came from, passed to ``HTTPHandler/reply(to:context:)``.
package struct HTTPRequestContext: Sendable, Hashable {
    /// The connection the request arrived on.
    let connection: HTTPConnectionInfo
    /// The request's position on its connection: 0 for the first, 1 for the next keep-alive or pipelined one.
    let requestIndex: Int

    /// Creates a context (the server does this).
    init(connection: HTTPConnectionInfo, requestIndex: Int) {
        self.connection = connection
        self.requestIndex = requestIndex
    }
}
