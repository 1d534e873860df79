extension TransportFailure {
    /// The answer a forwarding server gives its client when the upstream failed: 502 with
    /// `X-MockServer-Upstream-Failure: KIND` and a JSON body naming the kind, the upstream and what happened,
    /// such as `{"error": "upstream_timeout", "message": "The upstream http://127.0.0.1:8080 did not answer
    /// within 1000 ms.", "detail": "The request timed out.", "upstream": "http://127.0.0.1:8080"}`.
    /// When `unreachable` (the upstream was never reached, see ``UpstreamOutcome/unreachable(_:)``),
    /// the message says it could not be reached, whatever the kind. A timeout is the recorder's own limit
    /// (``RecordingOptions/timeout``), so it is a 504 naming that limit. Either way, when `recording`, the
    /// message says that nothing was recorded for the request.
    func badGatewayResponse(upstream: Upstream, timeout: Duration, unreachable: Bool = false, recording: Bool = false) -> HTTPResponse {
        let timedOut = !unreachable && kind == .timeout
        var sentence =
            switch unreachable ? .refused : kind {
            case .refused: "The upstream \(upstream) could not be reached"
            case .reset: "The upstream \(upstream) broke the connection before a complete response"
            case .timeout: "The upstream \(upstream) sent nothing for \(DurationSpelling.milliseconds(timeout)) ms, the recorder's upstream timeout"
            }
        sentence += (unreachable || timedOut) && recording ? "; nothing was recorded for this request." : "."
        var body: [String: CassetteJSON] = [
            "error": .string("upstream_\(kind.rawValue)"),
            "message": .string(sentence),
            "upstream": .string(upstream.description),
        ]
        if let message { body["detail"] = .string(message) }
        return HTTPResponse(
            status: timedOut ? 504 : 502,
            headers: ["Content-Type": "application/json", "X-MockServer-Upstream-Failure": kind.rawValue],
            body: CassetteJSON.sortedObject(body).serialized())
    }
}
