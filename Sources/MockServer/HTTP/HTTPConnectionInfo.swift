/// Facts about one accepted client connection.
public struct HTTPConnectionInfo: Sendable, Hashable {
    /// A number unique among this server's connections, starting at 1 in accept order.
    public let id: UInt64
    /// The client's numeric IP address (`127.0.0.1`, `::1`).
    public let remoteAddress: String
    /// The client's TCP port.
    public let remotePort: Int

    /// Creates connection facts (the server does this; public for handler tests).
    public init(id: UInt64, remoteAddress: String, remotePort: Int) {
        self.id = id
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
    }
}

/// Where a request came from, passed to ``HTTPHandler/reply(to:context:)``.
public struct HTTPRequestContext: Sendable, Hashable {
    /// The connection the request arrived on.
    public let connection: HTTPConnectionInfo
    /// The request's position on its connection: 0 for the first, 1 for the next keep-alive or pipelined one.
    public let requestIndex: Int

    /// Creates a context (the server does this; public for handler tests).
    public init(connection: HTTPConnectionInfo, requestIndex: Int) {
        self.connection = connection
        self.requestIndex = requestIndex
    }
}

/// What the server does with a connection it has just accepted, before reading anything.
public enum HTTPAdmission: Sendable, Hashable {
    /// Serve the connection.
    case accept
    /// Close it at once (FIN) without reading: a refused connection.
    case close
    /// Reset it at once (RST) without reading.
    case reset
}
