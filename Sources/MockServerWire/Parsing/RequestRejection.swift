import Foundation

/// Why a request cannot be served, with the status the server answers before closing the connection.
package struct RequestRejection: Error, Equatable {
    /// 400, 408, 413, 417, 431 or 505; 426 from ``WebSocketHandshake``.
    package let status: Int
    /// One sentence for the plain-text body of the answer.
    package let reason: String
    /// Header lines the answer carries besides `Content-Type` (`Sec-WebSocket-Version` with a 426).
    package var headers: HTTPHeaders = [:]

    /// The answer: the status, the plain-text reason and ``headers``.
    package var response: HTTPResponse {
        var response = HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data((reason + "\n").utf8))
        for line in headers { response.headers.add(name: line.name, value: line.value) }
        return response
    }

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

/// A request answered before any cassette was consulted, because it could not be served: by the server
/// itself (400, 408, 413, 417, 431 or 505), or by a handler in front that refused it (421 for a `Host` the
/// server does not answer); the status, the reason sent, and the method and path when its head had been
/// read. Handed to the server's observer, so that a log can show what the journal never holds.
package struct RejectedRequest: Sendable, Equatable, CustomStringConvertible {
    /// The status sent.
    package let status: Int
    /// The sentence sent as the body.
    package let reason: String
    /// `METHOD PATH`, the query left out (it may hold secrets no redaction saw), or `nil` when the head
    /// had not arrived whole.
    package let request: String?

    /// Creates the record of a rejection; `request` as ``request`` describes it.
    package init(status: Int, reason: String, request: String?) {
        self.status = status
        self.reason = reason
        self.request = request
    }

    /// `POST /upload → 413 rejected: The request body exceeds the limit of 10 bytes.`; a head not read whole
    /// reads `(request not read) → 400 rejected: …`.
    package var description: String {
        "\(request ?? "(request not read)") → \(status) rejected: \(reason)"
    }
}
