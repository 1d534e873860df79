extension Connection {
    /// Brings the connection to a steady state after anything happened: answers buffered requests,
    /// writes queued bytes, closes when due, and updates readiness interest and the timer.
    func settle() {
        var rounds = 0
        while !isClosed {
            rounds += 1
            // Frames right after the upgrade request, in the same read, are read once the 101 is queued.
            let stoppedForBackpressure = processRequests() || processFrames()
            flushOutput()
            if isClosed { return }
            // A live stream's parts (a WebSocket's frames) wait with their producer until the client has read what came before.
            if rounds < 64, takeRelayed() || takeWebSocketOutbox() { continue }
            // Output drained after parsing paused for it: continue with the buffered requests.
            guard stoppedForBackpressure, output.isEmpty, rounds < 64 else { break }
        }
        if isClosed { return }
        // A stalled or lingering connection only waits for the client to go away.
        if peerClosedInput {
            switch phase {
            case .stalled, .lingering, .streaming, .relaying, .webSocket:
                // A streaming client that closes its side has stopped reading (cancelled): nothing more is due. A
                // WebSocket client that closes TCP without a close frame has dropped the socket (`.ended`).
                closeNow()
                return
            default:
                break
            }
        }
        if output.isEmpty, case .closing(let mode) = phase {
            finishClosing(mode)
            if isClosed { return }
        }
        updateInterest()
        reschedule()
    }

    private func flushOutput() {
        guard !output.isEmpty else { return }
        switch output.flush(to: fd) {
        case .moved:
            lastActivity = loop.now
        case .wouldBlock, .endOfFile:
            break
        case .failed:
            closeNow()
        }
    }

    private func finishClosing(_ mode: CloseMode) {
        switch mode {
        case .graceful where input.isEmpty && pendingHead == nil:
            closeNow()
        case .graceful, .lingering:
            startLingering()
        case .reset:
            closeNow(reset: true)
        }
    }

    /// Sends FIN after the final answer, then discards input until the client closes or the linger
    /// time ends, so that unread input does not make the kernel reset the answer away.
    private func startLingering() {
        guard !peerClosedInput else {
            closeNow()
            return
        }
        Sys.shutdownWrite(fd)
        input.clear()
        phase = .lingering
        lingerUntil = loop.now + Self.lingerTime
    }

    private func updateInterest() {
        var wanted: Interest = []
        if !output.isEmpty { wanted.insert(.write) }
        if wantsInput { wanted.insert(.read) }
        guard wanted != registered else { return }
        loop.poller.modify(fd, interest: wanted)
        registered = wanted
    }

    private var wantsInput: Bool {
        guard !peerClosedInput else { return false }
        switch phase {
        case .reading:
            return output.pendingCount <= Self.backpressureLimit && input.count < server.inputLimit
        case .stalled, .lingering:
            return true
        case .webSocket:
            return output.pendingCount <= Self.backpressureLimit && input.count < server.inputLimit
        case .awaiting, .delaying, .throttling, .streaming, .relaying:
            return input.count < server.inputLimit
        case .closing:
            return false
        }
    }

    /// Closes at once (with RST when `reset`), cancelling a pending deferred answer.
    func closeNow(reset: Bool = false) {
        guard !isClosed else { return }
        isClosed = true
        let previous = phase
        phase = .closing(.graceful)
        pendingHead = nil
        body = .init()
        loop.forgetClosing(self)
        server.releaseConnectionSlot()
        if reset { Sys.reset(fd) } else { Sys.close(fd) }
        if case .awaiting(let pending, _, _) = previous { pending.cancel() }
        if case .relaying(let relay, _) = previous { relay.stream.cancel() }
        // A WebSocket, or one waiting for its 101, ends without a close frame.
        if case .webSocket(let channel, _) = previous { channel.session.deliver(.ended) }
        if case .delaying(let reply, _) = previous { reply.webSocketSession?.deliver(.ended) }
    }
}
