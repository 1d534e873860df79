import Foundation

/// A routed request's reply that its client's own process can deliver exactly as the socket would: an
/// ordinary response or a stream replayed with its timing, after a delay (a latency fault). Every other reply
/// takes the socket, where the bytes are what the client reads: the network-level faults (reset, close, stall,
/// raw bytes, throttling, a stream cut short or left open), answers that come later (`deferred`, `live`), a
/// WebSocket (`webSocket`), and a body still in a `Content-Encoding`, which the client's `URLSession` decodes
/// itself (or fails to).
struct InProcessReply {
    enum Content {
        case whole(HTTPResponse)
        case stream(HTTPStream)
    }

    /// Nanoseconds before the head is due.
    var delay: UInt64
    var content: Content

    /// The head's response: the whole response, or the stream's head.
    var response: HTTPResponse {
        switch content {
        case .whole(let response): response
        case .stream(let stream): stream.head
        }
    }

    var isStream: Bool {
        if case .stream = content { return true }
        return false
    }

    /// `reply` as delivered in-process, or `nil` when it needs the socket.
    init?(_ reply: HTTPReply) {
        switch reply.action {
        case .response(let response):
            guard Self.isUnencoded(response) else { return nil }
            self.init(delay: 0, content: .whole(response))
        case .stream(let stream):
            guard stream.ending == .complete, Self.isUnencoded(stream.head) else { return nil }
            self.init(delay: 0, content: .stream(stream))
        case .delayed(let nanoseconds, let inner):
            guard var delayed = InProcessReply(inner) else { return nil }
            let (sum, overflow) = delayed.delay.addingReportingOverflow(nanoseconds)
            delayed.delay = overflow ? .max : sum
            self = delayed
        case .raw, .close, .reset, .stall, .throttled, .deferred, .live, .webSocket:
            // A WebSocket needs the socket: its 101 turns the connection into a two-way channel.
            return nil
        }
    }

    private init(delay: UInt64, content: Content) {
        self.delay = delay
        self.content = content
    }

    /// No `Content-Encoding`, or `identity`: the client's `URLSession` leaves the body as it is.
    private static func isUnencoded(_ response: HTTPResponse) -> Bool {
        response.headers.values(for: "Content-Encoding").allSatisfy { value in
            value.split(separator: ",").allSatisfy { $0.trimmingCharacters(in: .whitespaces).caseInsensitiveEquals("identity") }
        }
    }
}
