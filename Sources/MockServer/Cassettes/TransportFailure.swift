/// A recorded failure below HTTP: the upstream refused the connection, reset it, or never answered.
/// Replay hands it to the fault layer, which reproduces the same failure on the wire.
package struct TransportFailure: Error, Sendable, Hashable {
    /// The kinds a cassette can record. A closed set: the cassette format version says which exist.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The connection was refused (nothing listening).
        case refused
        /// The connection was reset (TCP RST) before a complete response.
        case reset
        /// No complete response arrived in time.
        case timeout
    }

    /// What happened.
    package var kind: Kind
    /// The client-side error text at record time, for readers; `nil` when none.
    package var message: String?

    /// Creates a transport failure.
    init(kind: Kind, message: String? = nil) {
        self.kind = kind
        self.message = message
    }
}

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
