import ServiceReplayShared

/// What the event loops know about one running ``HTTPServer``: its listener, handler and limits
/// (converted once to the units the loops use), and its connection counters.
final class ServerContext: Sendable {
    let listener: Int32
    let handler: any HTTPHandler
    let limits: ParserLimits
    let requestTimeout: UInt64
    let idleTimeout: UInt64
    let maxConnections: Int
    let sendsDate: Bool
    /// `Server: name\r\n`, or empty.
    let serverLine: [UInt8]
    /// The most input a connection buffers: enough for the largest allowed head.
    let inputLimit: Int
    /// The virtual clock of paced answers, if any (see ``HTTPServer/Configuration/clock``).
    let clock: VirtualClock?

    // `Lock`, not `Atomic`: Atomic needs iOS 18 / macOS 15 (see Package.swift's platforms).
    private let openConnections = Lock(0)
    private let lastConnectionID = Lock<UInt64>(0)
    private let onDescriptorsExhausted: (@Sendable () -> Void)?
    private let onRejection: (@Sendable (RejectedRequest) -> Void)?
    /// Accepting failed for want of descriptors, and no connection was accepted since.
    private let isExhausted = Lock(false)

    init(
        listener: Int32, handler: any HTTPHandler, configuration: HTTPServer.Configuration,
        onDescriptorsExhausted: (@Sendable () -> Void)? = nil, onRejection: (@Sendable (RejectedRequest) -> Void)? = nil
    ) {
        self.listener = listener
        self.handler = handler
        self.onDescriptorsExhausted = onDescriptorsExhausted
        self.onRejection = onRejection
        limits = ParserLimits(
            maxRequestLineLength: max(16, configuration.maxRequestLineLength),
            maxHeaderBytes: max(16, configuration.maxHeaderBytes),
            maxHeaderCount: max(0, configuration.maxHeaderCount),
            maxBodyBytes: max(0, configuration.maxBodyBytes)
        )
        requestTimeout = max(configuration.requestTimeout.clampedNanoseconds, 1_000_000)
        idleTimeout = max(configuration.idleTimeout.clampedNanoseconds, 1_000_000)
        maxConnections = max(1, configuration.maxConnections)
        sendsDate = configuration.sendsDateHeader
        serverLine = Self.serverLine(of: configuration)
        inputLimit = max(limits.maxHeaderBytes, limits.maxRequestLineLength) + 4096
        clock = configuration.clock
    }

    /// The `Server: name\r\n` line `configuration` asks for, CR and LF dropped from the name; empty without a name.
    static func serverLine(of configuration: HTTPServer.Configuration) -> [UInt8] {
        configuration.serverName.map { Array("Server: \($0.filter { $0 != "\r" && $0 != "\n" })\r\n".utf8) } ?? []
    }

    /// Tells the observer, if any, of a request the server answered itself (event-loop thread).
    func noteRejection(_ rejected: RejectedRequest) {
        onRejection?(rejected)
    }

    /// How many connections were accepted so far.
    var acceptedConnectionCount: UInt64 {
        lastConnectionID.withLock { $0 }
    }

    func nextConnectionID() -> UInt64 {
        lastConnectionID.withLock { id in
            id &+= 1
            return id
        }
    }

    /// Counts a new connection; `false` (and nothing counted) when the cap is reached.
    func reserveConnectionSlot() -> Bool {
        openConnections.withLock { count in
            guard count < maxConnections else { return false }
            count += 1
            return true
        }
    }

    func releaseConnectionSlot() {
        openConnections.withLock { $0 -= 1 }
    }

    /// How many connections hold a slot now.
    var openConnectionCount: Int {
        openConnections.withLock { $0 }
    }

    /// Accepting failed because the process has no descriptor left: tells the observer once per shortage (the
    /// loops retry every ``Listener/exhaustionPause`` meanwhile, and connections wait in the backlog).
    func noteDescriptorsExhausted() {
        let isNew = isExhausted.withLock { exhausted in
            defer { exhausted = true }
            return !exhausted
        }
        if isNew { onDescriptorsExhausted?() }
    }

    /// A connection was accepted: a later shortage is a new one.
    func noteAccepted() {
        isExhausted.withLock { $0 = false }
    }
}
