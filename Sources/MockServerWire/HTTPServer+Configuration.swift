import ServiceReplayShared

extension HTTPServer {
    /// Where an ``HTTPServer`` listens and the limits it enforces. Every property has a default suited to
    /// tests on loopback; out-of-range values are clamped to the nearest sensible one.
    package struct Configuration: Sendable, Hashable {
        /// The numeric IPv4 or IPv6 address to bind, or `localhost`. Default `127.0.0.1`.
        package var host: String
        /// The TCP port; 0 (the default) picks a free ephemeral port.
        var port: UInt16
        /// The longest request line accepted, in bytes; longer answers 431 and closes. Default 8 KiB.
        var maxRequestLineLength: Int
        /// The largest request line plus header block (and, separately, trailer block) accepted, in bytes;
        /// larger answers 431 and closes. Default 32 KiB.
        var maxHeaderBytes: Int
        /// The most header fields accepted; more answers 431 and closes. Default 128.
        var maxHeaderCount: Int
        /// The largest request body accepted, in bytes (after de-chunking); larger answers 413 and closes,
        /// before reading the body when its length is declared. Default 32 MiB.
        var maxBodyBytes: Int
        /// How long a partly received request may make no progress (or a written answer may stay
        /// unread) before the server answers 408 and closes. Default 10 seconds; at least 1 ms.
        var requestTimeout: Duration
        /// How long a keep-alive connection may sit idle between requests before it is closed silently.
        /// Default 60 seconds; at least 1 ms.
        var idleTimeout: Duration
        /// The most connections open at once; further ones are closed right after accept. Default 1024.
        var maxConnections: Int
        /// Whether responses get a `Date` header when the handler did not set one. Default `true`.
        var sendsDateHeader: Bool
        /// The value of a `Server` header added when the handler did not set one; `nil` (the default)
        /// adds none.
        var serverName: String?
        /// The listen backlog: connections the kernel queues before they are accepted. Default 1024.
        var listenBacklog: Int
        /// The clock of delays, throttling, stalls and stream gaps for requests whose client shares it (they
        /// name their transfer in ``VirtualClock/transferHeader``); `nil` (the default): the loop's own clock.
        package var clock: VirtualClock? {
            get { virtualClock?.clock }
            set { virtualClock = newValue.map(ClockIdentity.init) }
        }
        private var virtualClock: ClockIdentity?

        /// Creates a configuration; every parameter has the default documented on its property.
        package init(
            host: String = "127.0.0.1",
            port: UInt16 = 0,
            maxRequestLineLength: Int = 8192,
            maxHeaderBytes: Int = 32768,
            maxHeaderCount: Int = 128,
            maxBodyBytes: Int = 32 << 20,
            requestTimeout: Duration = .seconds(10),
            idleTimeout: Duration = .seconds(60),
            maxConnections: Int = 1024,
            sendsDateHeader: Bool = true,
            serverName: String? = nil,
            listenBacklog: Int = 1024
        ) {
            self.host = host
            self.port = port
            self.maxRequestLineLength = maxRequestLineLength
            self.maxHeaderBytes = maxHeaderBytes
            self.maxHeaderCount = maxHeaderCount
            self.maxBodyBytes = maxBodyBytes
            self.requestTimeout = requestTimeout
            self.idleTimeout = idleTimeout
            self.maxConnections = maxConnections
            self.sendsDateHeader = sendsDateHeader
            self.serverName = serverName
            self.listenBacklog = listenBacklog
        }
    }
}

/// A clock compared by identity, so that a configuration holding one stays `Hashable`.
private struct ClockIdentity: Hashable {
    let clock: VirtualClock

    static func == (lhs: ClockIdentity, rhs: ClockIdentity) -> Bool { lhs.clock === rhs.clock }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(clock)) }
}
