extension HTTPReply {
    /// Writes `session`'s response (the `101`), then speaks WebSocket on the connection (RFC 6455): the client's
    /// frames are read and checked, its messages go to ``WebSocketSession/events``, pings are answered with pongs, a
    /// close frame is answered and the connection closed; what the handler sends through `session` goes out as it
    /// comes. Bytes the client sent after the upgrade request are read as frames. No idle timeout applies while the
    /// socket is open. Inside ``throttled(bytesPerSecond:_:)`` the rate is ignored; ``delayed(by:_:)`` delays the 101.
    /// A response other than 101 is sent as ``response(_:)`` would, and the session ends.
    package static func webSocket(_ session: WebSocketSession) -> HTTPReply {
        HTTPReply(.webSocket(session))
    }

    /// The session this reply (or the reply it delays or throttles) upgrades to, if any.
    package var webSocketSession: WebSocketSession? {
        switch action {
        case .webSocket(let session): session
        case .delayed(_, let inner), .throttled(_, let inner): inner.webSocketSession
        default: nil
        }
    }
}
