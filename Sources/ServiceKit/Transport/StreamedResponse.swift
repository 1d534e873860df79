import Foundation

/// A response whose head has arrived and whose body is still arriving, from
/// ``HTTPTransport/stream(_:)``.
public struct StreamedResponse: Sendable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The header fields in order.
    public var headers: ResponseHeaders
    /// The body, decompressed, in the chunks the transport received: it finishes when the response is
    /// complete and throws the transport's error when the exchange breaks. Iterate it once; stopping
    /// (cancelling the iterating task, or dropping the stream) stops the transfer.
    public var body: AsyncThrowingStream<Data, any Error>
    /// The URL the response came from, after redirects, when known.
    public var url: URL?

    /// A response; everything is kept as given.
    public init(statusCode: Int, headers: ResponseHeaders, body: AsyncThrowingStream<Data, any Error>, url: URL? = nil) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
    }
}
