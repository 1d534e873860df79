/// A response as a cassette holds it: status, ordered headers, decoded body.
public struct RecordedResponse: Sendable, Hashable {
    /// The status code, 100 to 999.
    public var status: Int
    /// Header lines in the order received; repeats (such as `Set-Cookie`) kept.
    public var headers: HTTPHeaders
    /// The body, never chunked, and decoded unless the headers still name its `Content-Encoding`: capture
    /// keeps a body it cannot decode (brotli, zstd, a broken gzip) as it came, with that header.
    public var body: RecordedBody

    /// Creates a recorded response; headers and body default to empty.
    public init(status: Int, headers: HTTPHeaders = [:], body: RecordedBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Records a received response, choosing the body's representation from its `Content-Type`.
    init(_ response: HTTPResponse) {
        self.init(
            status: response.status,
            headers: response.headers,
            body: RecordedBody(response.body, contentType: response.headers["Content-Type"])
        )
    }

    /// The response to send on replay: the body's bytes (JSON in its recorded layout), `Transfer-Encoding`
    /// dropped because bodies are stored whole, and `Content-Length` set to the body's size. A recorded
    /// `Content-Encoding` is sent with the bytes it describes, except beside inline JSON, which is decoded
    /// by construction (coded bytes never parse as JSON). An empty body keeps a recorded `Content-Length`,
    /// so a replayed `HEAD` answer still announces the size of the resource.
    var replayResponse: HTTPResponse {
        let bytes = body.data
        var headers = headers
        if case .json = body.form {
            headers.remove(name: "Content-Encoding")
        }
        headers.remove(name: "Transfer-Encoding")
        if !bytes.isEmpty {
            headers.set(name: "Content-Length", value: String(bytes.count))
        }
        return HTTPResponse(status: status, headers: headers, body: bytes)
    }
}
