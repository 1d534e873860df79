extension HTTPReply: CustomStringConvertible {
    /// A short, stable description for journals and test messages, such as `response 200`,
    /// `raw 42 bytes, then reset`, `delayed 200 ms, then response 503` or `throttled 2048 B/s: response 200`.
    package var description: String {
        switch action {
        case .response(let response):
            return "response \(response.status)"
        case .raw(let bytes, let ending):
            return "raw \(bytes.count) bytes, then \(ending)"
        case .close:
            return "close"
        case .reset:
            return "reset"
        case .stall:
            return "stall"
        case .delayed(let nanoseconds, let reply):
            return "delayed \(Self.milliseconds(nanoseconds)) ms, then \(reply)"
        case .throttled(let rate, let reply):
            return "throttled \(rate) B/s: \(reply)"
        case .deferred:
            return "deferred"
        case .live(let stream):
            return "live stream \(stream.head.status)"
        case .webSocket(let session):
            return "websocket \(session.response.status)"
        case .stream(let stream):
            return "stream \(stream.head.status), \(stream.parts.count) parts, then \(stream.ending)"
        }
    }

    private static func milliseconds(_ nanoseconds: UInt64) -> String {
        nanoseconds % 1_000_000 == 0 ? String(nanoseconds / 1_000_000) : String(Double(nanoseconds) / 1_000_000)
    }
}
