import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

/// Where the app's requests go once ``AppRouting/activate(environment:)`` found the variable: the process's
/// one route, read by ``AppRoutingProtocol`` for each request.
enum AppRoute {
    /// To the test's server, through loopback sessions of the process's own.
    case routed(server: URL, sessions: LoopbackSessions)
    /// Nowhere: the variable was malformed, so every request fails with this sentence.
    case refused(String)

    /// The route in force; `nil` until activated.
    private static let state = Lock<AppRoute?>(nil)

    /// The route in force; `nil` until activated.
    static var current: AppRoute? { state.withLock { $0 } }

    /// The loopback sessions of the process, made when first asked for: they live as long as it does.
    static let sessions = LoopbackSessions()

    /// A request's timeout when it set none: the default configuration's, since a `URLProtocol` does not see
    /// its session's configuration.
    static let defaultTimeout = URLSessionConfiguration.default.timeoutIntervalForRequest

    /// Makes `route` the one in force and, the first time, puts the routing protocol where the process's
    /// sessions consult it.
    static func install(_ route: AppRoute) {
        state.withLock { $0 = route }
        switch route {
        case .routed(let server, _): ProcessRouting.routeWebSockets(.server(server))
        case .refused(let sentence): ProcessRouting.routeWebSockets(.refused(sentence))
        }
        _ = registered
    }

    /// Registers ``AppRoutingProtocol`` once.
    private static let registered: Void = {
        ProcessRouting.activate(AppRoutingProtocol.self)
        #if canImport(FoundationNetworking)
        // FoundationNetworking consults the registered classes in the order registered, and registers its own
        // (HTTP first) when the first session is made: they are put back after ours, so ours comes first
        // whether or not a session was made already. The default configuration lists exactly those.
        let builtIn = URLSessionConfiguration.default.protocolClasses ?? []
        builtIn.forEach { URLProtocol.unregisterClass($0) }
        _ = URLProtocol.registerClass(AppRoutingProtocol.self)
        builtIn.forEach { _ = URLProtocol.registerClass($0) }
        #else
        // Apple's URLSession consults the latest registered class first, for the shared session only; the
        // default and ephemeral configurations get it in their protocol classes.
        _ = URLProtocol.registerClass(AppRoutingProtocol.self)
        #if canImport(ObjectiveC)
        DefaultConfigurations.routeEveryCopy()
        #endif
        #endif
    }()

    /// The server URL `value` names, or why it names none: an `http` URL on a loopback host (`localhost`,
    /// `127.x.x.x` or `::1`), with no path beyond `/`, no query, fragment or credentials (they would be
    /// dropped silently, since every request keeps its own path).
    static func parse(_ value: String) -> Result<URL, AppRoutingError> {
        func refused(_ why: String) -> Result<URL, AppRoutingError> {
            .failure(
                AppRoutingError(
                    description:
                        "\(AppRouting.environmentVariable) is '\(value)', which is not the base URL of a server on this machine (such as http://127.0.0.1:8080): \(why), "
                        + "so every request of the app fails instead of reaching the real network"))
        }
        guard let url = URL(string: value), let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme
        else {
            return refused("it is not a URL")
        }
        guard scheme.lowercased() == "http" else { return refused("its scheme is not http") }
        guard let host = components.host, isLoopback(host) else { return refused("its host is not a loopback address") }
        guard components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil,
            components.user == nil, components.password == nil
        else { return refused("it has more than a scheme, host and port") }
        return .success(url)
    }

    /// Whether `host` names this machine: `localhost`, an IPv4 address in 127.0.0.0/8, or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in UInt8(part) != nil }
    }

    /// Whether `session`'s requests for `url` reach ``AppRoutingProtocol`` while a route is in force (always
    /// `false` before): the first of its protocol classes that takes such a request is it, or (Apple's
    /// shared session, and a FoundationNetworking session whose classes take none) the registered classes,
    /// where it comes first.
    static func reaches(_ session: URLSession, for url: URL) -> Bool {
        guard current != nil, AppRoutingProtocol.canInit(with: URLRequest(url: url)) else { return false }
        #if !canImport(FoundationNetworking)
        if session === URLSession.shared { return true }
        #endif
        let request = URLRequest(url: url)
        let taker: AnyClass? = session.configuration.protocolClasses?.first { ($0 as? URLProtocol.Type)?.canInit(with: request) == true }
        guard let taker else { return true }
        return ObjectIdentifier(taker) == ObjectIdentifier(AppRoutingProtocol.self)
    }
}
