import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

/// Which server and configuration each route slot belongs to, with the loopback sessions its requests travel
/// through. Every routed configuration gets a slot. A slot whose server stopped or went away is given to a
/// later configuration only once ``retiredBeforeReuse`` other slots were freed after it, so the slots never
/// outnumber the routed configurations of running servers by more than that.
final class HostRoutes: Sendable {
    static let shared = HostRoutes()

    /// How many freed slots wait before the oldest is given again. A slot's protocol class cannot tell the
    /// configurations it served apart, so a session of a server that just stopped would reach the next owner
    /// of its slot; waiting makes its requests fail as a stopped server's should, while other tests start
    /// and stop theirs.
    static let retiredBeforeReuse = 16

    /// A slot's owner. Unchecked because `URLSessionConfiguration` is not `Sendable`: only its request
    /// timeout, additional headers and cookie settings are read, which the test sets before making its session.
    struct Route: @unchecked Sendable {
        weak var server: CassetteServer?
        let configuration: URLSessionConfiguration
        /// Ended when the server stops, or when they go (the slot given to another configuration).
        let sessions: LoopbackSessions
        /// Its server stopped or went away, and the slot waits in ``Table/retired``.
        var retired = false
    }

    private struct Table {
        var routes: [Route] = []
        /// Slots freed, oldest first.
        var retired: [Int] = []

        mutating func retire(_ slot: Int) {
            guard !routes[slot].retired else { return }
            routes[slot].retired = true
            retired.append(slot)
        }
    }

    private let table = Lock(Table())

    /// Gives `configuration`, routed to `server`, a slot and returns the routing protocol class of that slot.
    func protocolClass(for server: CassetteServer, configuration: URLSessionConfiguration) -> AnyClass {
        let route = Route(server: server, configuration: configuration, sessions: LoopbackSessions())
        let (index, abandoned) = table.withLock { table -> (Int, [LoopbackSessions]) in
            // A server that went away without stopping frees its slot when a later configuration looks; its
            // sessions are ended then, outside the lock.
            var abandoned: [LoopbackSessions] = []
            for slot in table.routes.indices where !table.routes[slot].retired && table.routes[slot].server == nil {
                table.retire(slot)
                abandoned.append(table.routes[slot].sessions)
            }
            if table.retired.count > Self.retiredBeforeReuse {
                let slot = table.retired.removeFirst()
                table.routes[slot] = route
                return (slot, abandoned)
            }
            table.routes.append(route)
            return (table.routes.count - 1, abandoned)
        }
        abandoned.forEach { $0.invalidate() }
        server.whenStopped { [self, sessions = route.sessions] in
            sessions.invalidate()
            table.withLock { table in
                if table.routes[index].sessions === sessions { table.retire(index) }
            }
        }
        func next<S: RouteSlot>(_: S.Type) -> any RouteSlot.Type { NextSlot<S>.self }
        func routingClass<S: RouteSlot>(_: S.Type) -> AnyClass { HostRoutingProtocol<S>.self }
        var slot: any RouteSlot.Type = FirstSlot.self
        for _ in 0..<index { slot = next(slot) }
        return routingClass(slot)
    }

    /// Where slot `index` sends its requests, with its server, or `nil` when the server stopped or went away.
    func destination(ofSlot index: Int) -> (destination: LoopbackDestination, server: CassetteServer)? {
        let route = table.withLock { $0.routes.indices.contains(index) ? $0.routes[index] : nil }
        guard let route, let server = route.server, let baseURL = server.baseURL else { return nil }
        let destination = LoopbackDestination(
            baseURL: baseURL, timeout: route.configuration.timeoutIntervalForRequest,
            headers: Self.headers(route.configuration.httpAdditionalHeaders), sessions: route.sessions,
            cookies: RoutedCookies(configuration: route.configuration))
        return (destination, server)
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
