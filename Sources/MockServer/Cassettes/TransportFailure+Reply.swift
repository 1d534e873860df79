extension TransportFailure {
    /// How a recorded upstream failure is reproduced for the client: a refused or reset upstream becomes
    /// a reset connection (a listening server cannot refuse a connection it has accepted; RST is what a
    /// refusal looks like on the wire too), a timed-out upstream becomes a stall, so the client times out.
    var reply: HTTPReply {
        switch kind {
        case .refused, .reset: .reset
        case .timeout: .stall
        }
    }
}
