/// Why an ``HTTPServer`` could not start. Its ``description`` is one sentence a person can act on.
package struct HTTPServerError: Error, Hashable, CustomStringConvertible {
    /// The kind of failure: an open set, compared with `==`.
    package struct Code: Hashable, Sendable {
        private let name: String

        /// The configured host is not a numeric IPv4 or IPv6 address or `localhost`.
        package static let invalidHost = Code(name: "invalidHost")
        /// The socket could not be created, bound or put into listening state (port in use, ...).
        package static let cannotListen = Code(name: "cannotListen")
        /// ``HTTPServer/start()`` was called after ``HTTPServer/stop()``; a server runs once.
        package static let stopped = Code(name: "stopped")
    }

    /// The kind of failure.
    package let code: Code
    /// One sentence saying what went wrong.
    package let description: String

    static func invalidHost(_ host: String) -> HTTPServerError {
        HTTPServerError(code: .invalidHost, description: "The host '\(host)' is not a numeric IPv4 or IPv6 address or 'localhost'.")
    }

    static func cannotListen(host: String, port: UInt16, failure: SocketFailure) -> HTTPServerError {
        HTTPServerError(code: .cannotListen, description: "Cannot listen on \(host) port \(port): \(failure.call) failed: \(Sys.describe(failure.code)).")
    }

    static let stopped = HTTPServerError(code: .stopped, description: "The server was stopped; create a new one to serve again.")
}
