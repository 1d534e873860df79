import Foundation

/// An HTTP response to send (or as a cassette recorded it).
package struct HTTPResponse: Sendable, Hashable {
    /// The status code; any value from 100 to 999 is allowed so that unusual codes survive a round trip.
    package var status: Int
    /// The header lines in order. `Content-Length` is written by the server from ``body`` when absent.
    package var headers: HTTPHeaders
    /// The body bytes, already decoded (never compressed or chunked).
    package var body: Data

    /// Creates a response; `headers` and `body` default to empty.
    package init(status: Int, headers: HTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The standard reason phrase for ``status``, or `"Status"` for codes without one.
    package var reasonPhrase: String { HTTPResponse.reasonPhrase(for: status) }

    /// The standard reason phrase for `status`, or `"Status"` for codes without one.
    package static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
