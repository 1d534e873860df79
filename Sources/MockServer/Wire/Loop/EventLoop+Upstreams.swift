/// Connections to `http://` upstreams (see ``HTTPUpstreamClient``), on the loop thread.
extension EventLoop {
    /// Sends `exchange` on a kept-alive connection of `client`'s, or on a new one (loop thread only).
    func startUpstream(_ exchange: UpstreamExchange, for client: HTTPUpstreamClient) {
        let key = ObjectIdentifier(client)
        if let connection = idleUpstreams[key]?.popLast() {
            connection.begin(exchange)
            return
        }
        switch Sys.connect(to: client.address) {
        case .failed(let code):
            exchange.end(.failure(client.connectFailure(code)))
        case .started(let fd):
            let connection = UpstreamConnection(fd: fd, client: client, loop: self)
            upstreams[fd] = connection
            poller.add(fd, interest: [.read, .write], shared: false)
            connection.begin(exchange)
        }
    }

    /// Keeps `connection` for its client's next exchange (loop thread only).
    func parkUpstream(_ connection: UpstreamConnection) {
        idleUpstreams[ObjectIdentifier(connection.client), default: []].append(connection)
    }

    /// Forgets a connection that is closing its descriptor (loop thread only).
    func forgetUpstream(_ connection: UpstreamConnection) {
        upstreams[connection.fd] = nil
        let key = ObjectIdentifier(connection.client)
        if let index = idleUpstreams[key]?.firstIndex(where: { $0 === connection }) {
            idleUpstreams[key]?.remove(at: index)
            if idleUpstreams[key]?.isEmpty == true { idleUpstreams[key] = nil }
        }
        poller.forgetClosing(connection.fd)
    }

    /// The earliest deadline of an exchange in flight.
    var earliestUpstreamDeadline: UInt64 {
        upstreams.values.reduce(UInt64.max) { earliest, connection in
            min(earliest, connection.exchange?.deadline ?? .max)
        }
    }

    /// Fails the exchanges whose deadline passed (loop thread only).
    func expireUpstreams() {
        guard earliestUpstreamDeadline <= now else { return }
        for connection in Array(upstreams.values) {
            connection.expireIfDue(now: now)
        }
    }

    /// Closes `client`'s idle connections, and with `streams`, cuts its exchanges whose body streams
    /// (loop thread only).
    func closeUpstreams(of client: HTTPUpstreamClient, cuttingStreams streams: Bool) {
        for connection in idleUpstreams[ObjectIdentifier(client)] ?? [] {
            connection.close()
        }
        guard streams else { return }
        for connection in Array(upstreams.values) where connection.client === client {
            if let exchange = connection.exchange, exchange.sink != nil {
                connection.cancel(exchange.id)
            }
        }
    }
}
