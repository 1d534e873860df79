import Foundation

/// Where a server in a forwarding mode (see ``CassetteServer/Mode``) sends requests, and how it records them.
public struct RecordingOptions: Sendable {
    /// The real API requests are forwarded to.
    public var upstream: Upstream
    /// The cassette file written after every recorded exchange (atomically, so a crash loses at most the
    /// exchange in flight); missing folders are created. `nil` (the default) keeps the recording in memory
    /// only (see ``CassetteServer/recordedCassette``). Ignored in ``CassetteServer/Mode/passThrough`` mode.
    public var file: URL?
    /// The name of a new cassette; default the file name without `.json`, else the upstream's host. A
    /// cassette that is appended to keeps its name.
    public var name: String?
    /// What is replaced by the placeholder before an exchange is recorded; default
    /// ``RedactionRules/default``. The record modes of tests and `recorder capture` add the project's rules
    /// file, `.servicereplay.json` in the recordings folder. The upstream always receives the request as the
    /// client sent it, and the client always receives the upstream's response unredacted.
    public var redaction: RedactionRules
    /// The longest the upstream may stay silent: counted from the request's last byte sent, then from each
    /// byte received, so a slow answer lasts as long as its bytes keep coming. Beyond it the client gets a
    /// 504 and nothing is recorded, since the limit was the recorder's, not the upstream's answer (the test
    /// that recorded fails saying so); a streamed answer that falls silent longer is cut and recorded as
    /// unfinished. Default 30 seconds; at least 1 millisecond. `recorder capture --upstream-timeout` sets it.
    public var timeout: Duration
    /// Called once per forwarded exchange, after it was recorded and saved and before the client gets the
    /// answer, on a background thread; it must be quick. Default `nil`. `recorder capture` prints its
    /// lines from here.
    package var onExchange: (@Sendable (ForwardedExchange) -> Void)? = nil
    /// How long a streamed answer's upstream is still read after its client went away, before it is cancelled:
    /// a stream that ends within it is recorded as ended. 300 ms; tests that must not depend on the machine's
    /// load set more.
    package var clientGoneGrace: Duration = .milliseconds(300)

    /// Creates options; every parameter but the upstream has the default described on its property.
    public init(
        upstream: Upstream, file: URL? = nil, name: String? = nil, redaction: RedactionRules = .default,
        timeout: Duration = .seconds(30)
    ) {
        self.upstream = upstream
        self.file = file
        self.name = name
        self.redaction = redaction
        self.timeout = timeout
    }
}
