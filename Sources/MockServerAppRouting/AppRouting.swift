import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

/// The app side of a UI test against a MockServer: one call at start-up sends every `http` and `https`
/// request of the app to the test's server, when the test asked for it in the app's launch environment.
///
/// ```swift
/// #if DEBUG
/// try AppRouting.activate()   // does nothing unless the UI test set MOCKSERVER_APP_SERVER
/// #endif
/// ```
///
/// The test sets ``environmentVariable`` to its server's loopback base URL (MockServer's
/// `CassetteServer.launchEnvironment`). Each request then travels over loopback to that server with the
/// path, query, headers and body it had, addressed to the server's loopback address, with `X-MockServer-Host`
/// naming the host it was meant for (the server puts it back as `Host`), so that requests to several hosts (an API, a CDN, an auth server) are recorded and matched each under its
/// own host. The app sees the server's answer as if the host had sent it; redirects are not followed (a
/// 3xx reaches the app as the server sent it).
///
/// What is routed: `URLSession.shared`, ServiceKit clients (`URLSessionTransport`, and the WebSockets of
/// `URLSessionWebSocketTransport`, which sends them to the server itself) and, on Apple platforms, sessions made
/// from `URLSessionConfiguration.default` and `.ephemeral`. Not routed: background sessions (Apple's URLSession
/// ignores their protocol classes), WebSocket tasks the app makes itself (a `URLProtocol` never sees one: they
/// reach the host their URL names), web views, and, on Linux,
/// sessions the app makes from a configuration itself (nothing global reaches them there).
/// A configuration's `httpAdditionalHeaders` do not reach the server: a `URLProtocol` never sees them; set
/// such headers on the requests.
public enum AppRouting {
    /// The launch-environment variable that turns routing on: the test server's base URL, an `http` URL
    /// on a loopback host (`http://127.0.0.1:PORT`).
    public static let environmentVariable = ProcessRouting.environmentVariable

    /// Reads ``environmentVariable`` from `environment` and, when it is there, routes every request of the
    /// process to that server from now on; returns the server's base URL. When it is absent, returns `nil`
    /// and does nothing at all: nothing is registered, no request is touched.
    ///
    /// Call it first thing at start-up, before any `URLSession` is made (on Linux `URLSession.shared` takes
    /// its protocol classes when first used). Calling it again routes to the newer value.
    /// - Throws: ``AppRoutingError`` when the variable holds no `http` URL on a loopback host (its sentence
    ///   says what it holds and why that is refused); every `http` and `https` request of the app then fails
    ///   with `URLError.cannotConnectToHost` carrying that sentence, rather than reaching the real network.
    ///   On Linux also when `URLSession.shared` was made before this call, so it cannot be routed.
    @discardableResult
    public static func activate(environment: [String: String] = ProcessInfo.processInfo.environment) throws(AppRoutingError) -> URL? {
        guard let value = environment[environmentVariable] else { return nil }
        switch AppRoute.parse(value) {
        case .success(let server):
            AppRoute.install(.routed(server: server, sessions: AppRoute.sessions))
            guard AppRoute.reaches(.shared, for: server) else { throw AppRoutingError.sharedSessionTooEarly }
            return server
        case .failure(let error):
            AppRoute.install(.refused(error.description))
            throw error
        }
    }
}

extension AppRouting {
    /// Whether `session`'s requests for `url` go to the test's server (or, when the route was refused, fail)
    /// rather than to the network: `false` before activation, and for the sessions and URLs routing cannot
    /// reach. For a stand-in app that must never send a request off the machine when routing missed it.
    package static func routes(_ session: URLSession, for url: URL) -> Bool {
        AppRoute.reaches(session, for: url)
    }
}

/// Why ``AppRouting/activate(environment:)`` could not route the app: one sentence in ``description``.
public struct AppRoutingError: Error, CustomStringConvertible, Equatable {
    /// What was wrong and what the app's requests do now, in one sentence.
    public let description: String

    /// On Linux, `URLSession.shared` takes the protocol classes registered when it is first used.
    static let sharedSessionTooEarly = AppRoutingError(
        description:
            "URLSession.shared was made before AppRouting.activate() was called, so its requests would bypass the test's server; call activate() first thing at start-up, before any URLSession is used"
    )
}
