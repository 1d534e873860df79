import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What moves bytes for a ``WebServiceClient``: ``URLSessionTransport`` by default; a test double or
/// another stack may stand in.
///
/// Contract for implementations:
/// - return the complete response, whatever its status (a 500 is a response, not an error);
/// - throw when no complete response arrived; the client maps the error through the service's
///   ``WebService/networkError(for:)`` hook, so throw `URLError` (or `CancellationError`) where you can;
/// - when the calling task is cancelled, stop promptly and throw;
/// - report upload progress of the request body to `uploadProgress` when it is given.
public protocol HTTPTransport: Sendable {
    /// Sends `request` (its body in `httpBody`) and returns the complete response.
    func send(_ request: URLRequest, uploadProgress: UploadProgressHandler?) async throws -> TransportResponse

    /// Sends `request` and returns once the response's head has arrived; the body follows chunk by chunk
    /// in ``StreamedResponse/body``, which ends normally when the response is complete and throws when the
    /// exchange breaks. When iteration of the body stops (its task cancelled, or the stream dropped), stop
    /// the transfer and close the connection. Throw, as ``send(_:uploadProgress:)`` does, when no head
    /// arrived. Default: ``send(_:uploadProgress:)``, then the whole body as one chunk.
    func stream(_ request: URLRequest) async throws -> StreamedResponse
}

extension HTTPTransport {
    /// Sends the request whole with ``send(_:uploadProgress:)`` and hands the body over as one chunk: right
    /// for test doubles, not for long streams.
    public func stream(_ request: URLRequest) async throws -> StreamedResponse {
        let response = try await send(request, uploadProgress: nil)
        let (body, chunks) = AsyncThrowingStream<Data, any Error>.makeStream()
        if !response.body.isEmpty {
            chunks.yield(response.body)
        }
        chunks.finish()
        return StreamedResponse(
            statusCode: response.statusCode, headers: response.headers, body: body,
            url: response.url)
    }
}

/// A complete HTTP response from an ``HTTPTransport``.
public struct TransportResponse: Sendable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The header fields in order.
    public var headers: ResponseHeaders
    /// The body, decompressed.
    public var body: Data
    /// The URL the response came from, after redirects, when known.
    public var url: URL?

    /// A response; everything is kept as given.
    public init(statusCode: Int, headers: ResponseHeaders = [:], body: Data = Data(), url: URL? = nil) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
    }
}

/// How much of a request body has been sent.
public struct UploadProgress: Hashable, Sendable {
    /// Bytes of the body sent so far.
    public let bytesSent: Int64
    /// The body's size in bytes; zero or negative when unknown.
    public let totalBytes: Int64

    /// A progress report.
    public init(bytesSent: Int64, totalBytes: Int64) {
        self.bytesSent = bytesSent
        self.totalBytes = totalBytes
    }

    /// The share sent, from 0 to 1; 0 while the size is unknown.
    public var fractionCompleted: Double {
        totalBytes > 0 ? min(1, Double(bytesSent) / Double(totalBytes)) : 0
    }
}

/// Receives upload progress, on an arbitrary thread, in increasing order of bytes sent.
public typealias UploadProgressHandler = @Sendable (UploadProgress) -> Void
