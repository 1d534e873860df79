/// A ``LoopUpstreamClient``'s connections on one event loop: those open, and among them the kept-alive ones
/// waiting for the client's next exchange. Confined to the loop's thread (hence `@unchecked Sendable`: other
/// threads only hand it to ``EventLoop/execute(_:)``).
final class UpstreamPool: @unchecked Sendable {
    let loop: EventLoop
    /// Open connections, by descriptor.
    @exclusivity(unchecked) private var open: [Int32: UpstreamConnection] = [:]
    /// The kept-alive ones.
    @exclusivity(unchecked) private var idle: [UpstreamConnection] = []

    init(loop: EventLoop) {
        self.loop = loop
    }

    /// Sends `exchange` on a kept-alive connection, or on a new one to `client`'s upstream (loop thread only).
    func start(_ exchange: UpstreamExchange, for client: LoopUpstreamClient) {
        if let connection = idle.popLast() {
            connection.begin(exchange)
            return
        }
        switch Sys.connect(to: client.address) {
        case .failed(let code):
            exchange.end(.unreachable(client.connectFailure(code)))
        case .started(let fd):
            let connection = UpstreamConnection(fd: fd, client: client, pool: self)
            open[fd] = connection
            loop.watch(connection.descriptor, interest: [.read, .write])
            connection.begin(exchange)
        }
    }

    /// Keeps `connection` for the next exchange (loop thread only).
    func park(_ connection: UpstreamConnection) {
        idle.append(connection)
    }

    /// Forgets a connection that is closing (loop thread only).
    func forget(_ connection: UpstreamConnection) {
        open[connection.fd] = nil
        if let index = idle.firstIndex(where: { $0 === connection }) {
            idle.remove(at: index)
        }
    }

    /// Closes the idle connections, and with `streams`, cuts the exchanges whose body streams (loop thread only).
    func close(cuttingStreams streams: Bool) {
        for connection in idle {
            connection.close()
        }
        guard streams else { return }
        for connection in Array(open.values) {
            if let exchange = connection.exchange, exchange.sink != nil {
                connection.cancel(exchange.id)
            }
        }
    }
}
