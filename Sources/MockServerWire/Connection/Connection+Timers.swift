import ServiceReplayShared

extension Connection {
    /// When the current timeout expires, or 0 when none applies: the request timeout while a request
    /// is partly read or an answer cannot be written, the idle timeout between requests, the linger
    /// time while lingering, the end of a close handshake the server started on a WebSocket. Deferred, delayed, throttled and stalled connections have none.
    ///
    /// A request head must arrive whole within the request timeout of its first byte, however steadily it
    /// trickles in (as nginx's `client_header_timeout`, which is not re-armed by each read); a body, like
    /// nginx's `client_body_timeout`, only must not stall for that long between reads.
    var timeoutDeadline: UInt64 {
        switch phase {
        case .reading:
            if headStartedAt != 0 {
                return headStartedAt + server.requestTimeout
            }
            return lastActivity + (isMidRequest || !output.isEmpty ? server.requestTimeout : server.idleTimeout)
        case .closing:
            return lastActivity + server.requestTimeout
        case .lingering:
            return lingerUntil
        case .webSocket(let channel, _):
            // No idle timeout: a WebSocket may be quiet for long. Only a close handshake the server started is bounded.
            return channel.closeDeadline
        case .awaiting, .delaying, .throttling, .streaming, .relaying, .stalled:
            return 0
        }
    }

    /// Makes sure the loop wakes this connection by its next deadline. A later deadline keeps the
    /// earlier wake-up (which then finds nothing due and reschedules), so keep-alive traffic costs no
    /// heap operations.
    func reschedule() {
        var next = actionAt == 0 ? UInt64.max : actionAt
        let timeout = timeoutDeadline
        if timeout != 0 { next = min(next, timeout) }
        // An unscheduled connection's wake is `.max`, so this also schedules one that is not in the heap,
        // and never schedules "no deadline" (`.max`).
        guard next < scheduledWake else { return }
        loop.timers.schedule(self, at: next)
    }

    /// Carries out what is due at ``LoopDescriptor/scheduledWake``: a planned action, a timeout.
    func wake() {
        let now = loop.now
        if actionAt != 0, actionAt <= now {
            actionAt = 0
            runPlannedAction()
        }
        guard !isClosed else { return }
        let deadline = timeoutDeadline
        if deadline != 0, deadline <= now { timeOut() }
        settle()
    }

    private func timeOut() {
        switch phase {
        case .reading where output.isEmpty && isMidRequest:
            if let transfer = pendingHead?.request.headers[VirtualClock.transferHeader], let pacing = server.clock?.pacing(for: transfer) {
                // A request on a virtual clock whose rest never came: the client's timeout on the clock says
                // so, as it would on the real one (long before this), not a 408 it would never have seen.
                pacing.stall()
                pendingHead = nil
                phase = .stalled
                input.clear()
            } else {
                reject(.timedOut)
            }
        case .reading, .closing, .lingering, .webSocket:
            closeNow()
        case .awaiting, .delaying, .throttling, .streaming, .relaying, .stalled:
            break
        }
    }
}
