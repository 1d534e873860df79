import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends ``WebService`` calls to one server. Create one client per base URL; it is immutable and safe
/// to share between tasks.
///
/// ```swift
/// let nice = WebServiceClient(baseURL: URL(string: "https://api.nice.example/v1")!,
///                             configuration: .init(commonParameters: { ["token": await tokens.current] }))
/// let friends = try await nice.send(FriendsService(userID: "42"))
/// ```
///
/// Every failure is a ``WebServiceError``; nothing else is thrown or passed to a completion handler.
public final class WebServiceClient: Sendable {
    /// The server's base URL; every service's endpoint is appended to its path.
    public let baseURL: URL
    /// Headers, common parameters, timeout, retry policy and clock.
    public let configuration: Configuration
    /// What sends the requests.
    public let transport: any HTTPTransport

    /// A client for `baseURL`. `transport` defaults to a new ``URLSessionTransport`` owned by this client
    /// (its session is invalidated when the client goes away).
    ///
    /// - Precondition: `baseURL` is an `http` or `https` URL; anything else is a programming error.
    public init(baseURL: URL, configuration: Configuration = Configuration(), transport: (any HTTPTransport)? = nil) {
        let scheme = baseURL.scheme?.lowercased()
        precondition(
            scheme == "http" || scheme == "https",
            "WebServiceClient needs an http or https base URL; got \(baseURL.absoluteString)")
        self.baseURL = baseURL
        self.configuration = configuration
        self.transport = transport ?? URLSessionTransport()
    }

    /// Sends `service` and returns its typed response, retrying as the configuration's policy allows.
    /// Cancelling the calling task cancels the request in flight and throws `.network(.cancelled)`.
    /// `uploadProgress` receives progress of the request body, if there is one.
    ///
    /// - Throws: ``WebServiceError`` only: network-level when no complete response arrived, service-level
    ///   when the response was an error or could not be mapped.
    public func send<Service: WebService>(
        _ service: Service, uploadProgress: UploadProgressHandler? = nil
    )
        async throws(WebServiceError) -> Service.Response
    {
        try await perform(service, uploadProgress: uploadProgress).response
    }
}
