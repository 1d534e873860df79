import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

/// The `URLProtocol` behind ``CassetteServer/sessionConfiguration(_:)``: it takes every `http` and `https`
/// request of a session made from such a configuration and sends it over loopback to the server of its
/// route slot, through one plain `URLSession` of its own (``HostRouter``). The client sees the server's
/// answer (or the failure on the real socket) as if it came from the host it asked for.
///
/// Why a class per slot: on Linux a `URLProtocol` sees neither the session nor its configuration (not even
/// its additional headers), only the request and its own class. So each routed configuration gets a slot, and the slot is a distinct specialisation of this class
/// (`HostRoutingProtocol<NextSlot<FirstSlot>>` for slot 1), which finds its server in ``HostRoutes``.
final class HostRoutingProtocol<Slot: RouteSlot>: URLProtocol, RoutingProtocol {
    /// The route slot whose server this class sends requests to.
    static var slotIndex: Int { Slot.index }

    /// Set in `startLoading`, read in `stopLoading`: URLSession calls both on its work queue, one after the other.
    /// Weak, because the exchange holds this instance to reach its client: the loopback session's task router
    /// keeps the exchange until its task completes, and then both go. A strong reference here would keep
    /// the pair, the client's task and its whole session (with its descriptors) for the life of the process.
    private weak var exchange: LoopbackExchange?
    /// The answer given in this process, when it was; weak for the same reason (its timers hold it while due).
    private weak var delivery: InProcessDelivery?
    /// The token of a reply decided in this process that the socket delivers, discarded when the load stops.
    private var handedOver: (token: String, server: CassetteServer)?

    /// Every http and https request: one that found no server must fail, never reach the real network.
    override class func canInit(with request: URLRequest) -> Bool {
        HostRouter.routes(request)
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    /// Answers in this process when the server is here and the reply needs no socket (see ``InProcessReply``):
    /// the request is matched, faulted and journaled as if it had come over loopback, with the lines the
    /// platform's URLSession would have added. Otherwise the request travels over loopback, carrying the token
    /// of the reply already decided when there is one.
    override func startLoading() {
        guard !HostRouter.refusesHiddenUploadBody(self) else { return }
        guard let (destination, server) = HostRoutes.shared.destination(ofSlot: Slot.index) else {
            failLoading(.cannotConnectToHost)
            return
        }
        let body = HostRouter.body(of: request)
        var replyToken: String?
        if let added = URLSessionAddedHeaders.profile,
            let received = HTTPRequest(
                routing: request, body: body, baseURL: destination.baseURL, added: added,
                headers: HostRouter.routedHeaderFields(for: request, sessionHeaders: destination.headers, cookies: destination.cookies)),
            let reply = server.replyInProcess(to: received)
        {
            let isHEAD = received.method == "HEAD"
            if let planned = InProcessReply(reply),
                let head = server.http.head(of: planned.response, isHEAD: isHEAD, streamed: planned.isStream)
            {
                let delivery = InProcessDelivery(
                    reply: planned, to: self, originalURL: request.url ?? destination.baseURL, isHEAD: isHEAD, cookies: destination.cookies,
                    server: server, timeout: HostRouter.timeout(of: request, sessionTimeout: destination.timeout))
                self.delivery = delivery
                delivery.start(head: head)
                return
            }
            let token = server.handedOver.put(reply)
            handedOver = (token, server)
            replyToken = token
        }
        // Without a descriptor for each end of the loopback connection, the request would wait in the
        // server's backlog until it timed out, naming nothing.
        guard Sys.descriptorsLeft(2) else {
            failLoading(
                .cannotConnectToHost,
                "the process has no file descriptors left (its limit is \(Sys.descriptorLimit)), so the routed request was not sent; something keeps descriptors open, or the limit is too low (ulimit -n)"
            )
            return
        }
        guard
            let routed = HostRouter.loopbackRequest(
                for: request, to: destination.baseURL, sessionTimeout: destination.timeout, sessionHeaders: destination.headers,
                cookies: destination.cookies, body: body)
        else {
            failLoading(.cannotConnectToHost)
            return
        }
        exchange = HostRouter.shared.forward(routed, for: self, to: destination, replyToken: replyToken)
    }

    override func stopLoading() {
        exchange?.cancel()
        delivery?.cancel()
        if let (token, server) = handedOver {
            _ = server.handedOver.take(token)
        }
    }
}

/// What a routed configuration's protocol class tells about itself without naming its slot type.
protocol RoutingProtocol {
    static var slotIndex: Int { get }
}
