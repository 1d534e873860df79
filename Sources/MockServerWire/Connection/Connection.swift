import Foundation
import ServiceReplayShared

/// One client connection. Owned by one event loop and touched only on that loop's thread.
///
/// Requests are handled one at a time in arrival order: while an answer is pending (deferred, delayed,
/// throttled), later pipelined requests stay buffered, so answers are always written in request order.
final class Connection: LoopDescriptor {
    /// What the connection is doing.
    enum Phase {
        /// Reading and answering requests (idle when nothing is buffered).
        case reading
        /// Waiting for a deferred answer.
        case awaiting(PendingAnswer, token: UInt64, ReplyContext)
        /// Waiting until ``Connection/actionAt`` to carry out a reply.
        case delaying(HTTPReply, ReplyContext)
        /// Dripping bytes out, one slice per ``Connection/actionAt``.
        case throttling(Throttle)
        /// Sending a stream's parts, each at its ``Connection/actionAt``.
        case streaming(StreamProgress)
        /// Sending a live stream's parts as its producer hands them over.
        case relaying(Relay, token: UInt64)
        /// Speaking WebSocket after a 101: frames in, the session's frames out.
        case webSocket(WebSocketChannel, token: UInt64)
        /// Never answering; input is discarded until the client closes.
        case stalled
        /// Writing what is queued, then closing in this way.
        case closing(CloseMode)
        /// The write side is shut; input is discarded until the client closes or the linger time ends.
        case lingering
    }

    enum CloseMode {
        /// FIN; lingers first when unread input would otherwise turn the close into a reset.
        case graceful
        /// RST.
        case reset
        /// FIN, then discard input for a while so the client reads the final answer before any reset.
        case lingering
    }

    /// What a reply needs to know about the request it answers.
    struct ReplyContext {
        var isHEAD: Bool
        var keepAliveRequested: Bool
        var isHTTP10: Bool
        /// Set inside ``HTTPReply/throttled(bytesPerSecond:_:)``.
        var bytesPerSecond: Int?
        /// The answer's waits are a virtual clock's (the client shares the server's clock), not the loop's.
        var pacing: VirtualPacing?
    }

    struct Throttle {
        var bytes: Data
        var offset: Int
        var slice: Int
        var interval: UInt64
        var ending: HTTPReply.Ending
        var pacing: VirtualPacing?
    }

    struct StreamProgress {
        var stream: HTTPStream
        /// The next part to send.
        var next: Int
        /// When the head was queued, on the loop's clock.
        var start: UInt64
        /// Whether parts are chunk-framed (HTTP/1.1) rather than sent bare until the connection closes.
        var chunked: Bool
        /// Whether the connection may serve another request after a complete stream.
        var keepAlive: Bool
        /// The virtual clock `start` is on, if any, and whether the client's reading of parts can be counted
        /// (not when the body is compressed, which the client reads decoded).
        var pacing: VirtualPacing?
        var countsBody = true
    }

    struct Relay {
        let stream: LiveStream
        var chunked: Bool
        var keepAlive: Bool
        /// The bytes of a body of declared length still to send; `nil` for a chunked or close-ended body.
        var remaining: Int?
    }

    enum BodyState {
        case none
        case length(remaining: Int)
        case chunked(ChunkedBodyDecoder)
    }

    /// More queued output than this stops reading and parsing until the client catches up.
    static let backpressureLimit = 1 << 20
    /// More unwritten output than this leaves a live stream's parts with its producer (see ``takeRelayed()``).
    static let relayOutputLimit = 64 << 10
    /// How long a lingering close waits for the client to finish sending.
    static let lingerTime: UInt64 = 2_000_000_000

    let loop: EventLoop
    let server: ServerContext
    let info: HTTPConnectionInfo

    // Mutable state below is confined to the loop thread and never accessed overlappingly (no
    // property is mutated while another access to it is open), so the runtime exclusivity checks,
    // measured at about a tenth of the server's user-space time, are turned off for it.
    @exclusivity(unchecked) var input = InputBuffer(capacity: 4096)
    @exclusivity(unchecked) var output = OutputQueue()
    @exclusivity(unchecked) var scanner = RequestHeadScanner()
    @exclusivity(unchecked) var pendingHead: RequestHead?
    @exclusivity(unchecked) var bodyState = BodyState.none
    @exclusivity(unchecked) var body = Data()
    @exclusivity(unchecked) var phase = Phase.reading
    @exclusivity(unchecked) var requestCount = 0
    @exclusivity(unchecked) var deferredToken: UInt64 = 0
    @exclusivity(unchecked) var peerClosedInput = false
    @exclusivity(unchecked) var isClosed = false
    @exclusivity(unchecked) var registered = Interest.read

    /// When bytes last moved in either direction.
    @exclusivity(unchecked) var lastActivity: UInt64 = 0
    /// When the server began reading the request head now in progress (its first byte, or the moment the
    /// connection turned to pipelined bytes already buffered); 0 while no head is in progress.
    @exclusivity(unchecked) var headStartedAt: UInt64 = 0
    @exclusivity(unchecked) var lingerUntil: UInt64 = 0
    /// When a delay ends or the next throttled slice is due; 0 when nothing is planned.
    @exclusivity(unchecked) var actionAt: UInt64 = 0
    /// Names the virtual clock's latest wake-up for this connection; an older one finds it changed and does nothing.
    @exclusivity(unchecked) var virtualToken: UInt64 = 0

    init(fd: Int32, loop: EventLoop, server: ServerContext, info: HTTPConnectionInfo) {
        self.loop = loop
        self.server = server
        self.info = info
        super.init(fd: fd)
    }

    /// Arms the idle timeout of a freshly accepted connection.
    func start() {
        lastActivity = loop.now
        reschedule()
    }

    /// Reacts to a readiness report.
    override func handle(_ event: PollerEvent) {
        // Darwin's poll reports a peer's FIN as readable and hangup: a client that half-closes after
        // its request still gets the answer, so the input is read first. Reading tells a reset
        // (an error) from a FIN (end of file); a hangup with nothing to read is a broken connection.
        if event.hangup, !event.readable {
            closeNow()
            return
        }
        if event.readable {
            readInput()
            if isClosed { return }
        }
        settle()
    }

    // Overrides live here: a class's extensions cannot override.
    override func timerFired() {
        wake()
    }

    /// Closes at once when `server` stops.
    override func detach(from server: ServerContext) {
        if server === self.server { closeNow() }
    }

    /// Whether part of a request has arrived.
    var isMidRequest: Bool {
        pendingHead != nil || !input.isEmpty
    }
}
