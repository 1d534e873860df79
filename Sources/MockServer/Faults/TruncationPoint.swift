/// Where a truncated response stops (built through ``Fault/truncateBody(bytes:)`` and its siblings).
enum TruncationPoint: Sendable, Hashable, CustomStringConvertible {
    /// Part of the status line, then close.
    case statusLine
    /// The whole status line and part of the header block (never its blank line), then close.
    case headers
    /// The whole head with the real `Content-Length`, then only the first `bytes` of the body, then close.
    /// When the body is not longer than `bytes`, one byte less than the body is sent.
    case body(bytes: Int)
    /// For a stream: the head and the first `events` parts, then close without ending the body. Any other
    /// response is cut as ``body(bytes:)`` with 0 bytes.
    case event(Int)

    /// The CLI spelling: `status-line`, `headers`, `body:N` or `event:N`.
    package var description: String {
        switch self {
        case .statusLine: "status-line"
        case .headers: "headers"
        case .body(let bytes): "body:\(bytes)"
        case .event(let count): "event:\(count)"
        }
    }
}
