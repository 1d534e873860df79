import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension WebServiceClient {
    /// Opens a WebSocket connection to `service` through the configuration's
    /// ``Configuration/webSocketTransport``, and returns once the server accepted it. The opening request is a
    /// `GET` of the service's endpoint under the base URL, with the `ws` or `wss` scheme, the service's parameters
    /// and the client's common parameters in the query, and the client's headers.
    ///
    /// Nothing is retried, and a connection that drops is not reopened: the app's own loop does it, on the
    /// network-level errors it wants to outlive (the client's ``Configuration/retryPolicy`` and
    /// ``Configuration/clock`` play no part):
    ///
    /// ```swift
    /// while true {
    ///     do {
    ///         let chat = try await client.connect(to: ChatService(room: "swift"))
    ///         for try await message in chat.messages { show(message) }
    ///         return                                      // the server closed normally
    ///     } catch {
    ///         guard error.family == .network, error.reason != .network(.cancelled) else { throw error }
    ///         try await Task.sleep(for: .seconds(2))      // dropped or unreachable: wait, then reconnect
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: ``WebServiceError`` only: `.network(.badResponse)` when the server refused the upgrade (any
    ///   status but 101, in ``WebServiceError/statusCode``, with ``WebSocketUpgradeRefused`` as the underlying
    ///   error); another network-level case when no connection could be made, as the transport's error maps
    ///   through ``WebServiceError/Network/init(transportError:)`` (on Linux, URLSession's transport cannot open
    ///   WebSockets at all: see ``URLSessionWebSocketTransport``); `.network(.cancelled)` when the calling task is
    ///   cancelled; `.service(.invalidRequest(_:))` when the service's parameters cannot make a query.
    public func connect<Service: WebSocketService>(to service: Service) async throws(WebServiceError) -> WebSocketConnection<Service> {
        guard !Task.isCancelled else { throw .network(.cancelled) }
        var parameters = service.parameters
        parameters.merge(defaults: await configuration.commonParameters())
        let request = try RequestBuilder(client: self).request(for: service, parameters: parameters)
        let opened: any WebSocketTransportConnection
        do {
            opened = try await configuration.webSocketTransport.open(request, subprotocols: service.subprotocols)
        } catch let refusal as WebSocketUpgradeRefused {
            throw WebServiceError(.network(.badResponse), underlyingError: refusal, statusCode: refusal.statusCode)
        } catch {
            throw .network(Task.isCancelled ? .cancelled : WebServiceError.Network(transportError: error), underlyingError: error)
        }
        let connection = WebSocketConnection(service: service, connection: opened, encoder: configuration.jsonEncoder)
        if Task.isCancelled {
            connection.close(code: .goingAway)
            throw .network(.cancelled)
        }
        return connection
    }
}
