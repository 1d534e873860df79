import Foundation

/// The server's side of the opening handshake (RFC 6455 §4.2): telling an upgrade request, and building the
/// `101 Switching Protocols` head a handler answers it with through ``HTTPReply/webSocket(_:)``. No extension is ever
/// accepted (`permessage-deflate` is not offered), so frames never carry reserved bits.
package enum WebSocketHandshake {
    /// The GUID RFC 6455 appends to the client's key.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// Whether `request` asks for a WebSocket: a GET whose `Upgrade` names `websocket` and whose `Connection` holds the
    /// token `upgrade` (both case-insensitive). Says nothing about the rest; ``response(to:subprotocol:headers:)``
    /// checks that.
    package static func isUpgrade(_ request: HTTPRequest) -> Bool {
        isUpgrade(method: request.method, headers: request.headers)
    }

    /// ``isUpgrade(_:)`` for a request known by its method and headers.
    package static func isUpgrade(method: String, headers: HTTPHeaders) -> Bool {
        method == "GET" && tokens(of: "Upgrade", in: headers).contains { $0.caseInsensitiveEquals("websocket") }
            && tokens(of: "Connection", in: headers).contains { $0.caseInsensitiveEquals("upgrade") }
    }

    /// The `101` answering the upgrade `request`: `Upgrade: websocket`, `Connection: Upgrade`, `Sec-WebSocket-Accept`,
    /// `Sec-WebSocket-Protocol: subprotocol` when one is chosen, then `headers` in their order (a recording's extras).
    /// - Throws: a ``RequestRejection`` to answer with (its ``RequestRejection/response``) when `request` is not an
    ///   HTTP/1.1 GET upgrade (400), does not speak version 13 (426 with `Sec-WebSocket-Version: 13`), has no
    ///   `Sec-WebSocket-Key` of 16 bytes in base64 (400), or did not offer `subprotocol` (400).
    package static func response(to request: HTTPRequest, subprotocol: String?, headers: HTTPHeaders = [:]) throws(RequestRejection) -> HTTPResponse {
        guard request.method == "GET", request.version == "HTTP/1.1" else {
            throw .malformed("A WebSocket handshake must be an HTTP/1.1 GET request.")
        }
        guard isUpgrade(request) else {
            throw .malformed("A WebSocket handshake needs `Upgrade: websocket` and `Connection: Upgrade`.")
        }
        guard request.headers.values(for: "Sec-WebSocket-Version").map({ $0.trimmingCharacters(in: .whitespaces) }) == ["13"] else {
            throw RequestRejection(
                status: 426, reason: "Only WebSocket version 13 is supported.", headers: ["Sec-WebSocket-Version": "13"])
        }
        let keys = request.headers.values(for: "Sec-WebSocket-Key")
        guard keys.count == 1, let key = keys.first?.trimmingCharacters(in: .whitespaces), Data(base64Encoded: key)?.count == 16 else {
            throw .malformed("A WebSocket handshake needs one Sec-WebSocket-Key of 16 bytes in base64.")
        }
        var response = HTTPResponse(status: 101, headers: ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": accept(forKey: key)])
        if let subprotocol {
            guard tokens(of: "Sec-WebSocket-Protocol", in: request.headers).contains(subprotocol) else {
                throw .malformed("The client did not offer the subprotocol \(subprotocol).")
            }
            response.headers.add(name: "Sec-WebSocket-Protocol", value: subprotocol)
        }
        for line in headers { response.headers.add(name: line.name, value: line.value) }
        return response
    }

    /// `Sec-WebSocket-Accept` for the client's `Sec-WebSocket-Key`: base64 of the SHA-1 of the key followed by the GUID.
    package static func accept(forKey key: String) -> String {
        Data(SHA1.digest(Array((key + guid).utf8))).base64EncodedString()
    }

    /// The comma-separated tokens of every `name` line, trimmed, empty ones left out.
    static func tokens(of name: String, in headers: HTTPHeaders) -> [String] {
        headers.values(for: name).flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
