extension WebServiceError {
    /// Network-level failures: the exchange with the server did not complete. Which `URLError` code
    /// lands in which case is documented on ``init(urlErrorCode:)``.
    public enum Network: Hashable, Sendable, CaseIterable {
        /// The device has no usable network connection.
        case notConnected
        /// The server's host name could not be resolved.
        case cannotFindHost
        /// The host was found but no connection could be made (refused, unreachable, unusable URL).
        case cannotConnect
        /// The server did not answer within the request's timeout.
        case timedOut
        /// The connection dropped (reset, closed) before the exchange finished.
        case connectionLost
        /// The server's reply was truncated, empty or not valid HTTP.
        case badResponse
        /// The TLS handshake failed or the server's certificate was not trusted.
        case secureConnectionFailed
        /// The caller cancelled the call.
        case cancelled

        /// The stable `NSError` code of the case in ``WebServiceError/networkErrorDomain``.
        public var code: Int {
            switch self {
            case .notConnected: 1
            case .cannotFindHost: 2
            case .cannotConnect: 3
            case .timedOut: 4
            case .connectionLost: 5
            case .badResponse: 6
            case .secureConnectionFailed: 7
            case .cancelled: 8
            }
        }
    }
}
