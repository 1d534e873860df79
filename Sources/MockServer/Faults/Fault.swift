import Foundation

/// One failure MockServer can inject in place of (or around) the normal answer to a request.
///
/// Faults come in three families: network-level faults break the connection, HTTP-level
/// faults change the response, and service-level faults answer with the API's own error payload. Reach
/// the built-ins through static factories (`.reset`, `.latency(.milliseconds(200))`,
/// `.status(503)`); ``description`` gives the CLI spelling that ``FaultPlan/parse(specs:seed:)`` reads back
/// (a value that holds a comma or begins or ends with white space, such as an HTTP-date `retryAfter` from a plan
/// file, has no CLI spelling).
public struct Fault: Sendable, Hashable, CustomStringConvertible {
    /// Which layer a fault breaks.
    enum Family: String, Sendable, Hashable, CaseIterable {
        /// The connection misbehaves: refused, reset, truncated, stalled, slow.
        case network
        /// The connection is fine but the HTTP response is replaced or damaged.
        case http
        /// A valid response carries the API's own error payload.
        case service
    }

    enum Kind: Sendable, Hashable {
        case refuse
        case reset
        case empty
        case truncate(TruncationPoint)
        case malformedChunk
        case garbage(bytes: Int)
        case stall
        case latency(LatencyDistribution)
        case throttle(bytesPerSecond: Int)
        case status(code: Int, retryAfter: String?, headers: HTTPHeaders, body: Data)
        case corruptBody
        case emptyBody
        case contentType(String)
        case serviceError(template: String)
        case stallAfter(events: Int)
        case eventLatency(LatencyDistribution)
        case errorEvent(template: String, afterEvents: Int)
        case graphQLError(code: String)
        case webSocket(WebSocketFault)
    }

    let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }

    /// Close each new connection right after accepting it, before reading anything.
    public static let refuse = Fault(.refuse)
    /// Read the request, then reset the connection (RST, through `SO_LINGER` 0) without answering.
    public static let reset = Fault(.reset)
    /// Read the request, then close the connection cleanly without sending a byte.
    public static let empty = Fault(.empty)
    /// Send a chunked response whose chunk-size line is not hexadecimal, then close.
    public static let malformedChunk = Fault(.malformedChunk)
    /// Read the request, then never answer; the connection stays open until the client gives up or the
    /// server stops.
    public static let stall = Fault(.stall)
    /// Replace the body by bytes that are not valid JSON (nor valid UTF-8), keeping status and headers.
    public static let corruptBody = Fault(.corruptBody)
    /// Send the response with an empty body and `Content-Length: 0`.
    public static let emptyBody = Fault(.emptyBody)

    /// Send part of the status line, then close.
    public static let truncateStatusLine = Fault(.truncate(.statusLine))
    /// Send the whole status line and part of the header block (never its blank line), then close.
    public static let truncateHeaders = Fault(.truncate(.headers))

    /// Send the whole head with the real `Content-Length`, then only the first `bytes` of the body (one byte
    /// less than the body when the body is not longer than `bytes`), then close. A negative `bytes` counts as 0.
    public static func truncateBody(bytes: Int) -> Fault { Fault(.truncate(.body(bytes: max(0, bytes)))) }

    /// For a stream: send the head and the first `events` parts, then close without ending the body. Any
    /// other answer is cut as ``truncateBody(bytes:)`` with 0 bytes. A negative `events` counts as 0.
    public static func truncate(afterEvents events: Int) -> Fault { Fault(.truncate(.event(max(0, events)))) }

    /// Send the response only up to `point`, with headers that promise more, then close.
    static func truncate(_ point: TruncationPoint) -> Fault { Fault(.truncate(point)) }

    /// Send `bytes` seeded random bytes that are not HTTP, then close. `bytes` must be at least 1;
    /// the default is 256.
    public static func garbage(bytes: Int = 256) -> Fault { Fault(.garbage(bytes: max(1, bytes))) }

    /// For a stream: send the first `events` parts, then nothing more, keeping the connection open until the
    /// client gives up. Any other answer stalls as ``stall``.
    public static func stall(afterEvents events: Int) -> Fault { Fault(.stallAfter(events: max(0, events))) }

    /// For a stream: wait `delay` before every part after the first, on top of the recorded timing. Any
    /// other answer is unchanged.
    public static func eventLatency(_ delay: Duration) -> Fault { Fault(.eventLatency(.fixed(delay))) }
    /// For a stream: as ``eventLatency(_:)-(Duration)``, with the extra wait drawn once per request uniformly
    /// from `range` by the plan's seeded generator.
    public static func eventLatency(_ range: ClosedRange<Duration>) -> Fault { Fault(.eventLatency(.uniform(range))) }
    /// For a stream: as ``eventLatency(_:)-(Duration)``, with the extra wait drawn once per request as
    /// ``latency(median:sigma:)`` draws its delay.
    public static func eventLatency(median: Duration, sigma: Double) -> Fault {
        Fault(.eventLatency(.logNormal(median: median, sigma: sigma)))
    }
    /// For a stream: wait a duration drawn from `distribution` (once per request) before every part after
    /// the first, on top of the recorded timing. Any other answer is unchanged.
    static func eventLatency(_ distribution: LatencyDistribution) -> Fault { Fault(.eventLatency(distribution)) }

    /// For a stream: send the first `afterEvents` parts, then the error template named `template` as an
    /// event, then end the stream. The template's body is sent as is when it is a stream, else as `data:`
    /// lines. Any other answer is replaced by the template, as ``serviceError(_:)``. A missing template fails
    /// the server's start, as for ``serviceError(_:)``.
    public static func errorEvent(_ template: String, afterEvents: Int = 0) -> Fault {
        Fault(.errorEvent(template: template, afterEvents: max(0, afterEvents)))
    }

    /// Delay the normal answer by `delay`.
    public static func latency(_ delay: Duration) -> Fault { Fault(.latency(.fixed(delay))) }
    /// Delay the normal answer by a duration drawn uniformly from `range` by the plan's seeded generator:
    /// `.latency(.milliseconds(100) ... .milliseconds(300))`.
    public static func latency(_ range: ClosedRange<Duration>) -> Fault { Fault(.latency(.uniform(range))) }
    /// Delay the normal answer by a duration whose logarithm is normal, drawn by the plan's seeded generator:
    /// half of the delays are under `median`, and `sigma` (above 0; plans accept up to 5) widens the tail.
    /// A draw is capped at 60 s so that nothing waits for ever.
    public static func latency(median: Duration, sigma: Double) -> Fault { Fault(.latency(.logNormal(median: median, sigma: sigma))) }
    /// Delay the normal answer by a duration drawn from `distribution`.
    static func latency(_ distribution: LatencyDistribution) -> Fault { Fault(.latency(distribution)) }

    /// Send the normal answer at no more than `bytesPerSecond`, clamped to 1 byte to 1 TB (2^40 bytes)
    /// per second.
    public static func throttle(bytesPerSecond: Int) -> Fault {
        Fault(.throttle(bytesPerSecond: min(max(1, bytesPerSecond), ThrottleRate.maximumBytesPerSecond)))
    }

    /// Replace the response by one with status `code`, the given headers and body.
    ///
    /// `retryAfter` is sent as `Retry-After` (seconds or an HTTP-date); when `nil`, 503 and 429 get
    /// ``defaultRetryAfter`` and other codes get none. An empty `body` becomes a small JSON body that
    /// names the status, so clients that expect JSON still parse something.
    public static func status(_ code: Int, retryAfter: String? = nil, headers: HTTPHeaders = [:], body: Data = Data()) -> Fault {
        Fault(.status(code: code, retryAfter: retryAfter, headers: headers, body: body))
    }

    /// Replace the response's `Content-Type` by `contentType`, keeping its body.
    public static func contentType(_ contentType: String) -> Fault { Fault(.contentType(contentType)) }

    /// Answer with the error template named `template` from the cassette that would have answered
    /// (its `errorTemplates`). A server none of whose cassettes holds the template fails to start, naming the
    /// rule and the templates there are (see ``CassetteServer/init(cassettes:configuration:)``).
    public static func serviceError(_ template: String) -> Fault { Fault(.serviceError(template: template)) }

    /// Answer a GraphQL request as a GraphQL server reports an error: `200 OK` with the recorded answer's
    /// `data` (or `null`) and `"errors":[{"message":…,"extensions":{"code":CODE}}]`, a service-level error
    /// whatever the operation, which a client that reads `data` alone mistakes for success. `code` (default `INTERNAL_SERVER_ERROR`) must be a GraphQL name such as `FORBIDDEN` or
    /// `UNAUTHENTICATED`; ``FaultPlan/init(seed:rules:)`` refuses any other.
    public static func graphQLError(code: String = "INTERNAL_SERVER_ERROR") -> Fault { Fault(.graphQLError(code: code)) }

    /// For a WebSocket upgrade answered with a recorded conversation: send the first `afterMessages` server messages
    /// (default 0), then end the TCP connection without a close frame, which a client sees as an abnormal closure
    /// (1006). A conversation with fewer server messages gets the fault after its last one. A negative count is 0.
    ///
    /// WebSocket faults (the `webSocket…` factories) consider only WebSocket upgrade requests, so their triggers count
    /// conversations; one that fires on an upgrade the cassettes do not answer with a conversation leaves that answer
    /// as it was and the journal says it could not apply. A rule whose filters select recorded requests but no
    /// recorded conversation fails the server's start.
    public static func webSocketDrop(afterMessages: Int = 0) -> Fault {
        Fault(.webSocket(WebSocketFault(action: .drop, after: max(0, afterMessages))))
    }

    /// For a WebSocket conversation: send the first `afterMessages` server messages (default 0), then a close frame
    /// with `code` (the reason names the fault), and end the connection once the client answers it (or after 2 s).
    /// `code` must be one a server may send (1000–1003, 1007–1014, 3000–4999); ``FaultPlan/init(seed:rules:)``
    /// refuses any other. An application's own code (4000–4999) is a service-level fault, as ServiceKit reads it;
    /// any other code is network-level. Applies as ``webSocketDrop(afterMessages:)`` does.
    public static func webSocketClose(code: UInt16, afterMessages: Int = 0) -> Fault {
        Fault(.webSocket(WebSocketFault(action: .close(code), after: max(0, afterMessages))))
    }

    /// For a WebSocket conversation: send the first `afterMessages` server messages (default 0), then a frame no
    /// client may accept (a reserved opcode with a reserved bit set), then end the connection. Applies as
    /// ``webSocketDrop(afterMessages:)`` does.
    public static func webSocketMalformedFrame(afterMessages: Int = 0) -> Fault {
        Fault(.webSocket(WebSocketFault(action: .malformed, after: max(0, afterMessages))))
    }

    /// For a WebSocket conversation: send the first `afterMessages` server messages (default 0), then nothing more,
    /// keeping the connection open until the client gives up or the server stops. Applies as
    /// ``webSocketDrop(afterMessages:)`` does.
    public static func webSocketStall(afterMessages: Int = 0) -> Fault {
        Fault(.webSocket(WebSocketFault(action: .stall, after: max(0, afterMessages))))
    }

    /// For a WebSocket conversation: send the first `afterMessages` server messages (default 0) as recorded, then
    /// wait `delay` longer before each later one, on top of the recorded timing. A negative `delay` counts as 0.
    /// Applies as ``webSocketDrop(afterMessages:)`` does.
    public static func webSocketDelay(_ delay: Duration, afterMessages: Int = 0) -> Fault {
        Fault(.webSocket(WebSocketFault(action: .delay(max(.zero, delay)), after: max(0, afterMessages))))
    }

    /// The `Retry-After` value that 503 and 429 status faults carry unless told otherwise: `"1"`.
    public static let defaultRetryAfter = "1"

    /// The layer this fault breaks.
    var family: Family {
        switch kind {
        case .refuse, .reset, .empty, .truncate, .malformedChunk, .garbage, .stall, .latency, .throttle, .stallAfter,
            .eventLatency:
            .network
        case .status, .corruptBody, .emptyBody, .contentType: .http
        case .serviceError, .errorEvent, .graphQLError: .service
        case .webSocket(let fault): fault.family
        }
    }

    /// The WebSocket fault this is, when it is one: it considers only upgrade requests.
    var webSocketFault: WebSocketFault? {
        guard case .webSocket(let fault) = kind else { return nil }
        return fault
    }

    /// Whether this fault acts when a connection is accepted, before any request is read (only `refuse`).
    public var actsOnAccept: Bool { kind == .refuse }

    /// The fault's short name, the part of its CLI spelling before `=` (`truncate`, `status`, ...).
    public var name: String {
        switch kind {
        case .refuse: "refuse"
        case .reset: "reset"
        case .empty: "empty"
        case .truncate: "truncate"
        case .malformedChunk: "malformed-chunk"
        case .garbage: "garbage"
        case .stall: "stall"
        case .latency: "latency"
        case .throttle: "throttle"
        case .status: "status"
        case .corruptBody: "corrupt-body"
        case .emptyBody: "empty-body"
        case .contentType: "content-type"
        case .serviceError: "service-error"
        case .stallAfter: "stall"
        case .eventLatency: "event-latency"
        case .errorEvent: "error-event"
        case .graphQLError: "graphql-error"
        case .webSocket(let fault): fault.name
        }
    }

    /// The CLI spelling, such as `truncate=body:10` or `latency=100..300ms`. Headers and bodies given to
    /// ``status(_:retryAfter:headers:body:)`` have no CLI spelling and are left out.
    public var description: String {
        switch kind {
        case .refuse, .reset, .empty, .malformedChunk, .stall, .corruptBody, .emptyBody: name
        case .truncate(let point): "truncate=\(point)"
        case .garbage(let bytes): "garbage=\(bytes)"
        case .latency(let distribution): "latency=\(distribution)"
        case .throttle(let rate): "throttle=\(rate)B/s"
        case .status(let code, let retryAfter, _, _): retryAfter.map { "status=\(code),retry-after=\($0)" } ?? "status=\(code)"
        case .contentType(let type): "content-type=\(type)"
        case .serviceError(let template): "service-error=\(template)"
        case .stallAfter(let events): "stall=event:\(events)"
        case .eventLatency(let distribution): "event-latency=\(distribution)"
        case .errorEvent(let template, let after): "error-event=\(template),after=\(after)"
        case .graphQLError(let code): "graphql-error=\(code)"
        case .webSocket(let fault): fault.description
        }
    }
}
