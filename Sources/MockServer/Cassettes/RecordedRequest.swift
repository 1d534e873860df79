/// A request as a cassette holds it: method, target (path and query exactly as sent), ordered headers, body.
public struct RecordedRequest: Sendable, Hashable {
    /// The method token, such as `GET`.
    public var method: String
    /// Path plus query exactly as sent, such as `/users?since=0&per_page=2`; always starts with `/`.
    public var target: String
    /// Header lines in the order sent; repeats kept.
    public var headers: HTTPHeaders
    /// The body; ``RecordedBody/empty`` when there was none.
    public var body: RecordedBody

    /// Creates a recorded request; headers and body default to empty.
    public init(method: String, target: String, headers: HTTPHeaders = [:], body: RecordedBody = .empty) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// Records a received request, choosing the body's representation from its `Content-Type`.
    public init(_ request: HTTPRequest) {
        self.init(
            method: request.method,
            target: request.target,
            headers: request.headers,
            body: RecordedBody(request.body, contentType: request.headers["Content-Type"])
        )
    }

    /// The request as the HTTP layer spells it, with the body's bytes.
    public var httpRequest: HTTPRequest {
        HTTPRequest(method: method, target: target, headers: headers, body: body.data)
    }
}
