/// An attached server's listening socket as one event loop watches it: each loop that accepts for the server
/// (see ``EventLoopGroup/acceptingLoops()``) has its own, on the same descriptor, and admits the connections it
/// accepts.
final class Listener: LoopDescriptor {
    /// At most this many connections are accepted per readiness report. One, like nginx's default:
    /// epoll then offers the next pending connection to a loop that is idle (EPOLLEXCLUSIVE wakes
    /// waiting loops first), which spreads a burst of connections evenly.
    static let acceptBatch = 1
    /// How long a listener rests after the process ran out of descriptors.
    static let exhaustionPause: UInt64 = 100_000_000

    let server: ServerContext
    /// Strong, like a connection's: loops live as long as the process, and an unowned reference would cost
    /// a runtime check on every accept.
    private let loop: EventLoop
    /// Resting after descriptor exhaustion: not watched until its timer fires.
    @exclusivity(unchecked) private var paused = false

    init(server: ServerContext, loop: EventLoop) {
        self.server = server
        self.loop = loop
        super.init(fd: server.listener)
    }

    /// Accepts pending connections.
    override func handle(_ event: PollerEvent) {
        for _ in 0..<Self.acceptBatch {
            switch Sys.accept(fd) {
            case .wouldBlock:
                return
            case .skipped:
                continue
            case .exhausted:
                server.noteDescriptorsExhausted()
                loop.poller.remove(fd)
                paused = true
                loop.timers.schedule(self, at: loop.now + Self.exhaustionPause)
                return
            case .accepted(let fd, let address):
                server.noteAccepted()
                admit(fd, address: address)
            }
        }
    }

    /// The rest is over: watches the listener again.
    override func timerFired() {
        guard paused else { return }
        paused = false
        loop.poller.add(fd, interest: .read, shared: true)
    }

    override func detach(from server: ServerContext) {
        guard server === self.server else { return }
        if !paused { loop.poller.remove(fd) }
        loop.forget(self)
    }

    private func admit(_ fd: Int32, address: SocketAddress) {
        guard server.reserveConnectionSlot() else {
            Sys.close(fd)
            return
        }
        let info = HTTPConnectionInfo(id: server.nextConnectionID(), remoteAddress: address.host, remotePort: Int(address.port))
        switch server.handler.admission(for: info) {
        case .accept:
            break
        case .close:
            server.releaseConnectionSlot()
            Sys.close(fd)
            return
        case .reset:
            server.releaseConnectionSlot()
            Sys.reset(fd)
            return
        }
        let connection = Connection(fd: fd, loop: loop, server: server, info: info)
        loop.watch(connection, interest: .read)
        connection.start()
    }
}
