extension MockServerError {
    /// The configured host cannot be listened on.
    static func invalidHost(_ host: String) -> MockServerError {
        MockServerError(.invalidHost, "The host '\(host)' is not a numeric IPv4 or IPv6 address or 'localhost'.")
    }

    /// A socket call failed while setting up the listening socket.
    static func cannotListen(host: String, port: UInt16, failure: SocketFailure) -> MockServerError {
        MockServerError(.cannotListen, "Cannot listen on \(host) port \(port): \(failure.call) failed: \(Sys.describe(failure.code)).")
    }

    /// ``HTTPServer/start()`` after ``HTTPServer/stop()``.
    static let stopped = MockServerError(.stopped, "The server was stopped; create a new one to serve again.")
}
