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
    /// `routed` (a routed request addressed to the server at `baseURL`) as the server would receive it over the
    /// socket: `Host` first, then the lines the platform's URLSession adds (`added`) around the request's own,
    /// and its body. `nil` when its URL has no path the socket would send.
    init?(routed: URLRequest, baseURL: URL, added: URLSessionAddedHeaders.Profile) {
        guard let url = routed.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let target = components.percentEncodedQuery.map { path + "?" + $0 } ?? path
        let method = routed.httpMethod ?? "GET"
        let body = routed.httpBody ?? Data()
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: (baseURL.host ?? "127.0.0.1") + (baseURL.port.map { ":\($0)" } ?? ""))
        for (name, value) in routed.allHTTPHeaderFields ?? [:] {
            headers.add(name: name, value: value)
        }
        self.init(method: method, target: target, headers: added.applied(to: headers, method: method, bodyCount: body.count), body: body)
    }
}
