/// One request a recording server forwarded to the upstream, and what became of it
/// (see ``RecordingOptions/onExchange``).
package struct ForwardedExchange: Sendable {
    /// The exchange as the cassette holds it: the request as the client sent it, minus hop-by-hop headers,
    /// with `Host` naming the upstream and secrets redacted; the upstream's response (redacted, body
    /// decoded) or its transport failure; when it was recorded and how long the upstream took.
    package let interaction: Interaction
    /// The interaction's position in the recorded cassette, or `nil` when nothing was recorded
    /// (pass-through mode).
    package let index: Int?
    /// The status the client was sent: the upstream's, or 502 (504 for the recorder's timeout) when the upstream
    /// failed before the head of its answer reached the client; after it, the client got the upstream's
    /// status and the answer cut short.
    package let status: Int
    /// The size of the body the client was sent, in bytes (decoded; 0 for `HEAD`; for an answer cut short,
    /// the bytes the upstream sent before it failed).
    package let bodyBytes: Int
    /// Why the exchange could not be appended to the capture log, or `nil` when it was (or there is no
    /// file). The exchange stays in memory and the next save of the cassette tries to write it.
    package let saveError: MockServerError?
    /// For a streamed answer that the upstream broke mid-stream (reset, or closed before the end): how it
    /// broke. The stream is recorded as ``RecordedStream/Ending/broken``, after the parts that arrived.
    package let brokenStream: TransportFailure?
    /// Whether nothing was recorded because the upstream could not be reached (refused, unknown host, no TLS
    /// agreement, or the connection lost before any byte of an answer) or sent nothing for the recorder's
    /// timeout (the failure's kind is then `timeout`): ``interaction`` holds that failure.
    package let notRecorded: Bool

    /// Creates an exchange report (the server does this).
    init(
        interaction: Interaction, index: Int?, status: Int, bodyBytes: Int, saveError: MockServerError?,
        brokenStream: TransportFailure? = nil, notRecorded: Bool = false
    ) {
        self.brokenStream = brokenStream
        self.notRecorded = notRecorded
        self.interaction = interaction
        self.index = index
        self.status = status
        self.bodyBytes = bodyBytes
        self.saveError = saveError
    }
}
