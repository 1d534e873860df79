import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension CassetteServer {
    /// A copy of `base` whose sessions send every `http` and `https` request, whatever its host
    /// (`https://api.github.com/users` included), to this server over loopback, so a client with fixed URLs,
    /// or an SDK that accepts a configuration, is tested unchanged.
    ///
    /// The server sees the request's path, query, headers and body, with `Host` still naming the host the
    /// client asked for; matching ignores the host unless a cassette's or the configuration's rules list the
    /// `Host` header. A request is answered inside this process, with no socket, when its reply needs none (an
    /// ordinary response, a timed stream, latency): matched, faulted and journaled as if it had come over
    /// loopback, with the header lines the platform's URLSession would have added, at about a `URLProtocol`
    /// stub's cost. Network-level faults, a body still in a `Content-Encoding`, fault rules that act on
    /// connections and recording through an upstream take the real loopback socket, and reach the client as the
    /// same `URLError` codes as when it talks to the server directly. Redirects are not followed: a 3xx reaches
    /// the client as recorded. Only sessions made from this configuration are routed, never
    /// `URLSession.shared` or other sessions; on Linux the routing is a `URLProtocol` first in
    /// `protocolClasses`. A session made from the configuration routes to this server while it runs; after
    /// it stops, its requests fail with `URLError.cannotConnectToHost` and never reach the network. On Linux a
    /// `URLProtocol` cannot read an upload task's body, so upload tasks fail with `URLError.unsupportedURL`:
    /// give the body as the request's `httpBody` (or `httpBodyStream`) to a data task. (Apple's URLSession
    /// hands the protocol the body as a stream, which is sent.)
    ///
    /// Cookies are handled as the session would: `Cookie` from the configuration's `httpCookieStorage` (when
    /// `httpShouldSetCookies` and the request's `httpShouldHandleCookies` allow it), and every `Set-Cookie` of
    /// the answer stored there for the URL the client asked for, as `httpCookieAcceptPolicy` and the
    /// request's `mainDocumentURL` allow.
    ///
    /// The configuration's `httpAdditionalHeaders` (a token set there by an SDK, say) reach the server, as
    /// the session would send them: a header the request sets itself wins. A background configuration
    /// (`URLSessionConfiguration.background(withIdentifier:)`) is refused: Apple's URLSession ignores
    /// `protocolClasses` in background sessions, so their requests would reach the real network.
    ///
    /// A `URLProtocol` never sees a WebSocket task, so a `webSocketTask(with:)` on such a session is not routed.
    /// So that it cannot reach the real host either, the configuration names this server as its HTTP and HTTPS
    /// proxy (`connectionProxyDictionary`): such a task then reaches this server as a proxied request, which it
    /// refuses (421, journaled with a sentence). Open WebSockets at the server's base URL instead (a ServiceKit
    /// `WebSocketService` with the client's base URL set to it). The proxy was checked by reading Apple's
    /// documentation only; on Linux, URLSession cannot open WebSockets at all.
    /// - Throws: ``MockServerError`` when the server is not running (call ``start()`` first), or
    ///   (`invalidConfiguration`) when `base` is a background configuration.
    public func sessionConfiguration(_ base: URLSessionConfiguration = .ephemeral) throws(MockServerError) -> URLSessionConfiguration {
        guard baseURL != nil else {
            throw MockServerError(.notRunning, "the server is not running, so there is nothing to route requests to; start it first")
        }
        // On Apple platforms only a background configuration has an identifier. FoundationNetworking has no
        // background sessions (nor `background(withIdentifier:)`), but a settable `identifier`: one set is refused alike.
        if let identifier = base.identifier {
            throw MockServerError(
                .invalidConfiguration,
                "the background session configuration '\(identifier)' cannot be routed, because background sessions ignore protocolClasses and would reach the real network; pass .ephemeral or .default instead"
            )
        }
        guard let configuration = base.copy() as? URLSessionConfiguration else {
            throw MockServerError(.invalidConfiguration, "the session configuration could not be copied")
        }
        // Learning what URLSession adds takes a few loopback requests, once per process: started now, it is
        // usually done before the first routed request, which would otherwise take the socket.
        _ = URLSessionAddedHeaders.profile
        configuration.protocolClasses =
            [HostRoutes.shared.protocolClass(for: self, configuration: configuration)]
            + (base.protocolClasses ?? [])
        if let port = baseURL?.port {
            // What the protocol does not take (a WebSocket task) comes here as a proxied request, never to the real host.
            configuration.connectionProxyDictionary = [
                "HTTPEnable": 1, "HTTPProxy": "127.0.0.1", "HTTPPort": port,
                "HTTPSEnable": 1, "HTTPSProxy": "127.0.0.1", "HTTPSPort": port,
            ]
        }
        return configuration
    }
}
