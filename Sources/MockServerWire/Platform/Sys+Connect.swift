#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The outcome of starting a non-blocking `connect`.
package enum ConnectOutcome {
    /// Connected at once (usual on loopback), or still connecting: wait until writable, then ask
    /// ``Sys/pendingError(_:)``.
    case started(fd: Int32)
    /// The socket could not be made, or the connection failed at once, with this `errno`.
    case failed(Int32)
}

/// Outgoing connections, for the recorder's own upstream client.
extension Sys {
    /// Opens a non-blocking, close-on-exec, no-delay socket and starts connecting it to `address`.
    package static func connect(to address: SocketAddress) -> ConnectOutcome {
        let fd = socket(address.family, streamType, 0)
        guard fd >= 0 else { return .failed(errno) }
        configureNewSocket(fd)
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        while true {
            let result = address.withSockAddr { systemConnect(fd, $0, $1) }
            if result == 0 || errno == EINPROGRESS { return .started(fd: fd) }
            if errno == EINTR { continue }
            let code = errno
            close(fd)
            return .failed(code)
        }
    }

    /// The error a connecting socket ended with (`SO_ERROR`), or 0 when it connected.
    package static func pendingError(_ fd: Int32) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code
    }
}

private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}

/// Blocking waits, for clients that run on a thread of their own (``WebSocketClient``).
extension Sys {
    /// Waits until `fd` can be read (or, when `forWriting`, written), has failed or was hung up, for at most
    /// `timeoutMilliseconds`; returns whether it is ready. `false` also after an interrupted wait, so that a caller
    /// looping until its deadline simply waits again.
    package static func waitUntilReady(_ fd: Int32, forWriting: Bool, timeoutMilliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: forWriting ? Int16(POLLOUT) : Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, max(0, timeoutMilliseconds)) > 0
    }
}
