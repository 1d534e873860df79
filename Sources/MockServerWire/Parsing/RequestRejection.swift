/// Why a request cannot be served, with the status the server answers before closing the connection.
package struct RequestRejection: Error, Equatable {
    /// 400, 408, 413, 417, 431 or 505.
    let status: Int
    /// One sentence for the plain-text body of the answer.
    package let reason: String

    static func malformed(_ reason: String) -> RequestRejection {
        RequestRejection(status: 400, reason: reason)
    }

    static func headTooLarge(_ reason: String) -> RequestRejection {
        RequestRejection(status: 431, reason: reason)
    }

    static func bodyTooLarge(limit: Int) -> RequestRejection {
        RequestRejection(status: 413, reason: "The request body exceeds the limit of \(limit) bytes.")
    }

    static let timedOut = RequestRejection(status: 408, reason: "The request did not arrive completely in time.")
    static let unsupportedExpectation = RequestRejection(status: 417, reason: "Only the expectation 100-continue is supported.")
    static let unsupportedVersion = RequestRejection(status: 505, reason: "Only HTTP/1.0 and HTTP/1.1 are supported.")
}
