import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

/// The `URLProtocol` behind ``AppRouting``: it takes every `http` and `https` request of the process while a
/// route is in force and sends it over loopback to the test's server (``HostRouter``, the same forwarding as
/// MockServer's own host routing), or fails it when the route was refused. Never consulted before
/// ``AppRouting/activate(environment:)`` found the variable, since it is registered only then.
final class AppRoutingProtocol: URLProtocol {
    /// Set in `startLoading`, read in `stopLoading`. Weak, as in MockServer's routing protocol: the exchange
    /// holds this instance until its loopback task completes, and no longer.
    private weak var exchange: LoopbackExchange?

    /// Every http and https request: one that cannot reach the server must fail, never reach the real network.
    /// (The class is registered only once a route is in force, so it is consulted only then.)
    override class func canInit(with request: URLRequest) -> Bool {
        HostRouter.routes(request)
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    override func startLoading() {
        switch AppRoute.current {
        case .routed(let server, let sessions):
            let destination = LoopbackDestination(
                baseURL: server, timeout: AppRoute.defaultTimeout, headers: [:], sessions: sessions, cookies: Self.cookies)
            exchange = HostRouter.shared.forward(self, to: destination)
        case .refused(let sentence):
            failLoading(.cannotConnectToHost, sentence)
        case nil:
            failLoading(.cannotConnectToHost)
        }
    }

    /// The process's shared cookie storage, which `URLSession.shared` and sessions made from `.default` use:
    /// the protocol cannot tell which session a request is from, so an `.ephemeral` session's requests share it
    /// too while routed.
    private static var cookies: RoutedCookies? {
        RoutedCookies(storage: HTTPCookieStorage.shared, acceptPolicy: HTTPCookieStorage.shared.cookieAcceptPolicy, sendsCookies: true)
    }

    override func stopLoading() {
        exchange?.cancel()
    }
}
