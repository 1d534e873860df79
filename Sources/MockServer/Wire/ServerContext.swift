import Synchronization

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

    let openConnections = Atomic<Int>(0)
    private let lastConnectionID = Atomic<UInt64>(0)
    private let onDescriptorsExhausted: (@Sendable () -> Void)?
    /// Accepting failed for want of descriptors, and no connection was accepted since.
    private let isExhausted = Atomic<Bool>(false)

    init(listener: Int32, handler: any HTTPHandler, configuration: HTTPServer.Configuration,
         onDescriptorsExhausted: (@Sendable () -> Void)? = nil) {
        self.listener = listener
        self.handler = handler
        self.onDescriptorsExhausted = onDescriptorsExhausted
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
        serverLine = configuration.serverName.map { Array("Server: \($0.filter { $0 != "\r" && $0 != "\n" })\r\n".utf8) } ?? []
        inputLimit = max(limits.maxHeaderBytes, limits.maxRequestLineLength) + 4096
    }

    func nextConnectionID() -> UInt64 {
        lastConnectionID.add(1, ordering: .relaxed).newValue
    }

    /// Counts a new connection; `false` (and nothing counted) when the cap is reached.
    func reserveConnectionSlot() -> Bool {
        if openConnections.add(1, ordering: .relaxed).newValue <= maxConnections { return true }
        openConnections.subtract(1, ordering: .relaxed)
        return false
    }

    func releaseConnectionSlot() {
        openConnections.subtract(1, ordering: .relaxed)
    }

    /// Accepting failed because the process has no descriptor left: tells the observer once per shortage (the
    /// loops retry every ``EventLoop/exhaustionPause`` meanwhile, and connections wait in the backlog).
    func noteDescriptorsExhausted() {
        if !isExhausted.exchange(true, ordering: .relaxed) { onDescriptorsExhausted?() }
    }

    /// A connection was accepted: a later shortage is a new one.
    func noteAccepted() {
        if isExhausted.load(ordering: .relaxed) { isExhausted.store(false, ordering: .relaxed) }
    }
}
