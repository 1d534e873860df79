/// How the body of a request is delimited (RFC 9112 §6).
enum BodyFraming: Equatable {
    case none
    case length(Int)
    case chunked
}

/// A parsed request line and header block, before the body is read.
struct RequestHead {
    /// The request without its body.
    var request: HTTPRequest
    var framing: BodyFraming
    /// Whether the client allows the connection to stay open after the answer.
    var wantsKeepAlive: Bool
    /// Whether the client sent `Expect: 100-continue` (HTTP/1.1 only) and waits before sending the body.
    var expectsContinue: Bool
    /// Whether the client sent an `Expect` value other than `100-continue`.
    var hasUnsupportedExpectation: Bool
    var isHEAD: Bool
    var isHTTP10: Bool
}
