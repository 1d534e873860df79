import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer

/// Where a ``LoopbackWebSocketTransport`` connects for one opening request, and what it sends there.
struct LoopbackTarget: Sendable {
    /// The numeric address or `localhost`, without brackets.
    var host: String
    var port: Int
    /// The percent-encoded path and query, `/` at least.
    var path: String
    /// The request's headers, sorted by name, without those the handshake writes itself.
    var headers: HTTPHeaders

    /// The headers the handshake writes itself (or that make no sense on it), in lowercase.
    static let handshakeHeaders: Set<String> = [
        "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-protocol",
        "sec-websocket-extensions", "content-length", "transfer-encoding",
    ]

    /// The target of `request`.
    /// - Throws: `URLError(.cannotConnectToHost)` with one sentence when the URL is not `ws://` to a loopback
    ///   address.
    init(_ request: URLRequest) throws {
        guard let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            components.scheme?.lowercased() == "ws", let host = components.host.map(Self.unbracketed), Self.isLoopback(host)
        else {
            throw URLError.described(
                .cannotConnectToHost,
                "LoopbackWebSocketTransport connects only to a server on this machine (ws:// to 127.0.0.1, ::1 or localhost, no TLS), not to \(request.url?.absoluteString ?? "a request without a URL")."
            )
        }
        self.host = host
        self.port = components.port ?? 80
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        self.path = components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
        var headers = HTTPHeaders()
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key })
        where !Self.handshakeHeaders.contains(name.lowercased()) {
            headers.add(name: name, value: value)
        }
        self.headers = headers
    }

    /// `host` without the brackets of an IPv6 literal.
    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// Whether `host` names this machine: `localhost`, `::1`, or an IPv4 address in `127.0.0.0/8`.
    static func isLoopback(_ host: String) -> Bool {
        if host.lowercased() == "localhost" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.allSatisfy { UInt8($0) != nil } && octets[0] == "127"
    }
}
