/// Lets a deferred answer name its connection from another thread; only dereferenced on the loop thread.
struct ConnectionReference: @unchecked Sendable {
    let connection: Connection
}

/// Carries a deferred answer back to its connection's loop.
struct DeferredDelivery: Sendable {
    let loop: EventLoop
    let target: ConnectionReference
    let token: UInt64

    func deliver(_ reply: HTTPReply) {
        let target = target
        let token = token
        loop.execute { target.connection.receiveDeferred(reply, token: token) }
    }
}
