import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

extension CassetteServer {
    /// What the server decides for `request`, a routed request of this process as it would arrive on the
    /// socket: matched, faulted and journaled here, without a connection. `nil` when it must take the socket
    /// instead: the configuration says so, the server is not running, or it records through an upstream (the forwarding is the point), or
    /// its fault plan acts on connections as they are accepted, or the request is beyond the limits a
    /// connection enforces.
    func replyInProcess(to request: HTTPRequest) -> HTTPReply? {
        guard configuration.answersRoutedRequestsInProcess, recorder == nil, baseURL != nil, handler.current.injector?.hasAcceptRules != true,
            http.admitsInProcess(request)
        else { return nil }
        return http.replyInProcess(to: request)
    }
}

extension HTTPRequest {
    /// A routed request (`routing`, its body read, its header fields as routing gives them) as the server at
    /// `baseURL` would receive it over the socket: the path and query as sent, `Host` the server's address, then
    /// the lines the platform's URLSession adds (`added`) around the request's own. `nil` when its URL has no
    /// path the socket would send.
    init?(routing: URLRequest, body: Data?, baseURL: URL, added: URLSessionAddedHeaders.Profile, headers fields: [String: String]) {
        guard let url = routing.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let target = components.percentEncodedQuery.map { path + "?" + $0 } ?? path
        let method = routing.httpMethod ?? "GET"
        let body = body ?? Data()
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: (baseURL.host ?? "127.0.0.1") + (baseURL.port.map { ":\($0)" } ?? ""))
        for (name, value) in fields {
            headers.add(name: name, value: value)
        }
        self.init(method: method, target: target, headers: added.applied(to: headers, method: method, bodyCount: body.count), body: body)
    }
}
