import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

/// Which server and configuration each route slot belongs to, with the loopback sessions its requests travel
/// through. Every routed configuration gets a slot; a slot whose server stopped or went away is given to the
/// next configuration, so the slots in use never outnumber the routed configurations of running servers.
final class HostRoutes: Sendable {
    static let shared = HostRoutes()

    /// A slot's owner. Unchecked because `URLSessionConfiguration` is not `Sendable`: only its request
    /// timeout and additional headers are read, which the test sets before making its session.
    struct Route: @unchecked Sendable {
        weak var server: ReplayServer?
        let configuration: URLSessionConfiguration
        /// Ended when the server stops, or when they go (the slot given to another configuration).
        let sessions: LoopbackSessions
    }

    private let routes = Lock<[Route]>([])

    /// Gives `configuration`, routed to `server`, a slot and returns the routing protocol class of that slot.
    func protocolClass(for server: ReplayServer, configuration: URLSessionConfiguration) -> AnyClass {
        let route = Route(server: server, configuration: configuration, sessions: LoopbackSessions())
        server.whenStopped { [sessions = route.sessions] in sessions.invalidate() }
        // Which slots look free is read outside the lock (a server's base URL takes its own lock); a slot is
        // claimed only if nobody claimed it meanwhile.
        let owners = routes.withLock { $0.map(\.server) }
        let free = owners.indices.filter { owners[$0]?.baseURL == nil }
        // A slot given to another configuration drops its route, and with it the sessions of a server that
        // went away without stopping (LoopbackSessions ends them when it goes).
        let index = routes.withLock { routes in
            if let slot = free.first(where: { routes[$0].server === owners[$0] }) {
                routes[slot] = route
                return slot
            }
            routes.append(route)
            return routes.count - 1
        }
        func next<S: RouteSlot>(_: S.Type) -> any RouteSlot.Type { NextSlot<S>.self }
        func routingClass<S: RouteSlot>(_: S.Type) -> AnyClass { HostRoutingProtocol<S>.self }
        var slot: any RouteSlot.Type = FirstSlot.self
        for _ in 0..<index { slot = next(slot) }
        return routingClass(slot)
    }

    /// Where slot `index` sends its requests, or `nil` when the server stopped or went away.
    func destination(ofSlot index: Int) -> Destination? {
        let route = routes.withLock { $0.indices.contains(index) ? $0[index] : nil }
        guard let route, let baseURL = route.server?.baseURL else { return nil }
        return Destination(baseURL: baseURL, timeout: route.configuration.timeoutIntervalForRequest,
                           headers: Self.headers(route.configuration.httpAdditionalHeaders), sessions: route.sessions)
    }

    /// A configuration's `httpAdditionalHeaders` as names and values (Apple documents string values only;
    /// another is sent as it prints).
    static func headers(_ additional: [AnyHashable: Any]?) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in additional ?? [:] {
            headers["\(name.base)"] = "\(value)"
        }
        return headers
    }
}

/// Where a routed request goes, and what of its configuration it takes along.
struct Destination {
    /// The running server's base URL.
    let baseURL: URL
    /// The routed configuration's `timeoutIntervalForRequest`.
    let timeout: TimeInterval
    /// The routed configuration's `httpAdditionalHeaders`: a `URLProtocol` does not see them in its request
    /// on Apple platforms (nor on Linux), yet the session would have sent them.
    let headers: [String: String]
    /// The slot's loopback sessions.
    let sessions: LoopbackSessions
}
