import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLProtocol` behind ``ReplayServer/sessionConfiguration(_:)``: it takes every `http` and `https`
/// request of a session made from such a configuration and sends it over loopback to the server of its
/// route slot, through one plain `URLSession` of its own (``HostRouter``). The client sees the server's
/// answer (or the failure on the real socket) as if it came from the host it asked for.
///
/// Why a class per slot: on Linux a `URLProtocol` sees neither the session nor its configuration (not even
/// its additional headers), only the request and its own class. So each routed configuration gets a slot, and the slot is a distinct specialisation of this class
/// (`HostRoutingProtocol<NextSlot<FirstSlot>>` for slot 1), which finds its server in ``HostRoutes``.
final class HostRoutingProtocol<Slot: RouteSlot>: URLProtocol {
    /// Set in `startLoading`, read in `stopLoading`: URLSession calls both on its work queue, one after the other.
    private var exchange: LoopbackExchange?

    /// Every http and https request: one that found no server must fail, never reach the real network.
    override class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    override func startLoading() {
        // FoundationNetworking keeps an upload task's body where a URLProtocol cannot read it; sending the
        // request without it would make a wrong recording or a baffling miss.
        if task is URLSessionUploadTask, request.httpBody == nil, request.httpBodyStream == nil {
            client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL, userInfo: [
                NSLocalizedDescriptionKey: "a routed session cannot read the body of an upload task on Linux; set the request's httpBody and use a data task",
            ]))
            return
        }
        guard let (server, timeout) = HostRoutes.shared.destination(ofSlot: Slot.index),
              let routed = HostRouter.loopbackRequest(for: request, to: server, sessionTimeout: timeout) else {
            let failingURL = request.url.map { [NSURLErrorFailingURLErrorKey: $0] } ?? [:]
            client?.urlProtocol(self, didFailWithError: URLError(.cannotConnectToHost, userInfo: failingURL))
            return
        }
        exchange = HostRouter.shared.start(routed, for: self, originalURL: request.url ?? server)
    }

    override func stopLoading() {
        exchange?.cancel()
    }
}
