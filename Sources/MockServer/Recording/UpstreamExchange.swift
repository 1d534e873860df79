import Foundation

/// One request on its way through an ``UpstreamConnection``, and what has come back so far.
/// Confined to the connection's event loop.
final class UpstreamExchange {
    let id: UInt64
    /// The request as written on the wire.
    let request: [UInt8]
    let timeout: UInt64
    /// When the upstream has been silent too long: `timeout` after the last byte that moved either way.
    var deadline: UInt64
    var written = 0
    var reader: UpstreamResponseReader
    var decision: UpstreamStreamDecision?
    var head: UpstreamResponseHead?
    var body = Data()
    var sink: (@Sendable (Data) -> Void)?
    /// Shown each piece of a body that is also collected (see ``UpstreamBodyRoute/collect(showingEach:)``).
    var observer: (@Sendable (Data) -> Void)?
    /// Undoes the body's content coding as it streams; `nil` for a body without one.
    var decoder: StreamingContentDecoder?
    /// Sent again on a new connection already, after a kept-alive one turned out closed.
    var retried = false
    private var finish: ((UpstreamOutcome<LoopUpstreamAnswer>) -> Void)?

    init(
        id: UInt64, request: [UInt8], expectsBody: Bool, timeout: UInt64, now: UInt64, decision: UpstreamStreamDecision?,
        finish: @escaping (UpstreamOutcome<LoopUpstreamAnswer>) -> Void
    ) {
        self.id = id
        self.request = request
        self.timeout = timeout
        deadline = now &+ timeout
        reader = UpstreamResponseReader(expectsBody: expectsBody)
        self.decision = decision
        self.finish = finish
    }

    /// Reports the outcome, once.
    func end(_ outcome: UpstreamOutcome<LoopUpstreamAnswer>) {
        finish?(outcome)
        finish = nil
    }

    /// Readies the exchange to be sent again, from the start, on a new connection (before any answer came).
    func restart() {
        written = 0
        reader = UpstreamResponseReader(expectsBody: reader.expectsBody)
        retried = true
    }
}
