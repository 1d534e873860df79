import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the modules below the app side (`MockServerAppRouting`) must know of it: the variable a test sets
/// in the app's launch environment, and the protocol class that routes every request of the app once it
/// is active. ServiceKit adds that class to the sessions it makes (on Linux no global hook reaches them),
/// the loopback sessions keep it out (they must not route their own requests again), and MockServer's
/// `CassetteServer.launchEnvironment` names the variable. One place, so the two ends cannot disagree.
package enum ProcessRouting {
    /// The launch-environment variable holding the test server's loopback base URL (`http://127.0.0.1:PORT`).
    package static let environmentVariable = "MOCKSERVER_APP_SERVER"

    /// The app side's protocol class, once it is active; `nil` in every process that never activated it.
    private static let routingClass = Lock<AnyClass?>(nil)

    /// Where a routed app's WebSockets go: a `URLProtocol` cannot take a WebSocket task (on Apple's platforms nor
    /// on Linux), so ServiceKit's WebSocket transport asks here instead. `nil` until routing is activated.
    private static let webSocketRoute = Lock<WebSocketRoute?>(nil)

    /// What the app side decided for WebSockets when it activated routing.
    package enum WebSocketRoute: Sendable, Equatable {
        /// To the test's server, at this loopback base URL (`http://127.0.0.1:PORT`).
        case server(URL)
        /// Nowhere: routing was asked for but refused, for this reason (one sentence).
        case refused(String)
    }

    /// Records where a routed app's WebSockets go (the app side calls this when it activates routing); `nil`
    /// sends them where their URLs say again.
    package static func routeWebSockets(_ route: WebSocketRoute?) {
        webSocketRoute.withLock { $0 = route }
    }

    /// A WebSocket request of this process as it must be sent: to the test's server (`ws://127.0.0.1:PORT`, the
    /// same path and query, the authority it meant in ``HostRouter/hostHeader``) when routing is active and the
    /// request is not for a loopback host already; unchanged when routing is not active. Throws
    /// `URLError.cannotConnectToHost` with routing's sentence when routing was refused, so that the socket never
    /// reaches the real network.
    package static func routedWebSocketRequest(_ request: URLRequest) throws -> URLRequest {
        guard let route = webSocketRoute.withLock({ $0 }), let url = request.url,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let host = components.host,
            !["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased())
        else { return request }
        switch route {
        case .refused(let sentence):
            throw URLError(.cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: sentence])
        case .server(let server):
            let authority = components.port.map { "\(host):\($0)" } ?? host
            components.scheme = "ws"
            components.host = server.host
            components.port = server.port
            guard let routedURL = components.url else { return request }
            var routed = request
            routed.url = routedURL
            routed.setValue(authority, forHTTPHeaderField: HostRouter.hostHeader)
            return routed
        }
    }

    /// The protocol class routing every request of this process, or `nil` when none was activated.
    package static var protocolClass: AnyClass? {
        routingClass.withLock { $0 }
    }

    /// Makes `protocolClass` the one ``route(_:)`` adds and ``exclude(from:)`` removes.
    package static func activate(_ protocolClass: AnyClass) {
        routingClass.withLock { $0 = protocolClass }
    }

    /// Puts the routing class first in `configuration`'s `protocolClasses`, once, when routing is active;
    /// otherwise leaves it alone. A background configuration (one with an identifier) is left alone too:
    /// Apple's URLSession ignores its `protocolClasses`.
    package static func route(_ configuration: URLSessionConfiguration) {
        guard let routing = protocolClass, configuration.identifier == nil else { return }
        let classes = configuration.protocolClasses ?? []
        guard !classes.contains(where: { ObjectIdentifier($0) == ObjectIdentifier(routing) }) else { return }
        configuration.protocolClasses = [routing] + classes
    }

    /// Removes the routing class from `configuration`'s `protocolClasses`, when it is there.
    package static func exclude(from configuration: URLSessionConfiguration) {
        guard let routing = protocolClass, let classes = configuration.protocolClasses else { return }
        configuration.protocolClasses = classes.filter { ObjectIdentifier($0) != ObjectIdentifier(routing) }
    }
}
