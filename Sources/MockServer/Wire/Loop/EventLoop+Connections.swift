/// Accepting connections for attached servers, and keeping track of them, on the loop thread.
extension EventLoop {
    /// Starts accepting for `server` on this loop (loop thread only).
    func attach(_ server: ServerContext) {
        listeners[server.listener] = server
        poller.add(server.listener, interest: .read, shared: true)
    }

    /// Stops accepting for `server` and closes its connections on this loop (loop thread only).
    func detach(_ server: ServerContext) {
        if listeners.removeValue(forKey: server.listener) != nil {
            if let index = pausedListeners.firstIndex(where: { $0.fd == server.listener }) {
                pausedListeners.remove(at: index)
            } else {
                poller.remove(server.listener)
            }
        }
        for case let connection? in connections where connection.server === server {
            connection.closeNow()
        }
    }

    /// Accepts pending connections on `listener` (loop thread only).
    func acceptConnections(on listener: Int32, for server: ServerContext) {
        for _ in 0..<Self.acceptBatch {
            switch Sys.accept(listener) {
            case .wouldBlock:
                return
            case .skipped:
                continue
            case .exhausted:
                server.noteDescriptorsExhausted()
                poller.remove(listener)
                pausedListeners.append((listener, now + Self.exhaustionPause))
                return
            case .accepted(let fd, let address):
                server.noteAccepted()
                admit(fd, address: address, for: server)
            }
        }
    }

    private func admit(_ fd: Int32, address: SocketAddress, for server: ServerContext) {
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
        let connection = Connection(fd: fd, loop: self, server: server, info: info)
        let index = Int(fd)
        if index >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: index + 1 - connections.count))
        }
        connections[index] = connection
        poller.add(fd, interest: .read, shared: false)
        connection.start()
    }

    /// Forgets a connection that is closing its descriptor (loop thread only).
    func remove(_ connection: Connection) {
        connections[Int(connection.fd)] = nil
        poller.forgetClosing(connection.fd)
        timers.remove(connection)
        connection.server.releaseConnectionSlot()
    }

    /// Watches listeners again whose rest is over (loop thread only).
    func resumeListeners() {
        let due = pausedListeners.filter { $0.until <= now }
        pausedListeners.removeAll { $0.until <= now }
        for paused in due where listeners[paused.fd] != nil {
            poller.add(paused.fd, interest: .read, shared: true)
        }
    }
}
