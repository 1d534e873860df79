/// What an upstream did with one request. `Answer` is what an answer carries: the head and raw body from the
/// recorder's own connection (``LoopUpstreamAnswer``), or the `HTTPResponse` ``UpstreamForwarder`` makes of
/// either way of sending.
package enum UpstreamOutcome<Answer: Sendable>: Sendable {
    /// It answered.
    case response(Answer)
    /// It failed below HTTP after it was reached: it answered in part and broke, or (kind `timeout`) sent
    /// nothing for the timeout, the recorder's own limit.
    case failure(TransportFailure)
    /// It could not be reached: refused, unknown host, no TLS agreement, or the connection lost before any
    /// byte of an answer (through URLSession: before the answer's head). Nothing the upstream said, so a
    /// recording keeps none of it.
    case unreachable(TransportFailure)
}
