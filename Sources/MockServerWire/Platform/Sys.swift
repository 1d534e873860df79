#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The outcome of one non-blocking read or write.
package enum IOOutcome: Equatable {
    /// This many bytes moved (always > 0).
    case moved(Int)
    /// The peer closed its sending side (reads only).
    case endOfFile
    /// Nothing can move now; wait for readiness.
    case wouldBlock
    /// The socket failed with this `errno` (a reset, a broken pipe, ...); close it.
    case failed(Int32)
}

/// The outcome of one non-blocking `accept`.
enum AcceptOutcome {
    case accepted(fd: Int32, address: SocketAddress)
    case wouldBlock
    /// Out of file descriptors: stop accepting for a moment instead of spinning.
    case exhausted
    /// A transient failure for one pending connection (aborted, interrupted); try the next.
    case skipped
}

/// All POSIX socket, clock and thread glue in one place: the rest of the server never sees `errno`,
/// platform constants or C structs.
package enum Sys {
    static var errorNumber: Int32 { errno }

    /// A human-readable description of an `errno` value.
    package static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    // MARK: - Listening

    /// Creates a non-blocking listening socket bound to `address` and returns it with the bound port.
    static func listen(on address: SocketAddress, backlog: Int32) -> Result<(fd: Int32, port: UInt16), SocketFailure> {
        let fd = socket(address.family, streamType, 0)
        guard fd >= 0 else { return .failure(SocketFailure(call: "socket", code: errno)) }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        configureNewSocket(fd)
        let bound = address.withSockAddr { bind(fd, $0, $1) }
        guard bound == 0 else { return .failure(fail(fd, "bind")) }
        guard systemListen(fd, backlog) == 0 else { return .failure(fail(fd, "listen")) }
        guard let local = SocketAddress.local(of: fd) else { return .failure(fail(fd, "getsockname")) }
        return .success((fd, local.port))
    }

    private static func fail(_ fd: Int32, _ call: String) -> SocketFailure {
        let failure = SocketFailure(call: call, code: errno)
        _ = systemClose(fd)
        return failure
    }

    /// Accepts one pending connection as a non-blocking, close-on-exec, no-delay socket.
    static func accept(_ listener: Int32) -> AcceptOutcome {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { acceptNonBlocking(listener, $0, &length) }
        }
        guard fd >= 0 else {
            switch errno {
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .exhausted
            default: return .skipped
            }
        }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return .accepted(fd: fd, address: SocketAddress(storage: storage))
    }

    private static func acceptNonBlocking(_ listener: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>) -> Int32 {
        #if os(Linux)
        if let accept4 = LinuxSymbols.shared?.accept4 {
            return accept4(listener, address, length, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
        }
        #endif
        let fd = systemAccept(listener, address, length)
        if fd >= 0 { configureNewSocket(fd) }
        return fd
    }

    /// Non-blocking and close-on-exec: what every descriptor an event loop watches needs, sockets and pipes.
    static func configureLoopDescriptor(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// A loop descriptor that is a socket: also, on Darwin, no SIGPIPE for writes to a closed peer (an option
    /// only sockets have).
    static func configureNewSocket(_ fd: Int32) {
        configureLoopDescriptor(fd)
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    // MARK: - Reading and writing

    /// Reads at most `count` bytes into `buffer`.
    package static func receive(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> IOOutcome {
        while true {
            let n = recv(fd, buffer, count, 0)
            if n > 0 { return .moved(n) }
            if n == 0 { return .endOfFile }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed(errno)
        }
    }

    /// Writes at most `count` bytes from `buffer`, never raising SIGPIPE.
    package static func send(_ fd: Int32, from buffer: UnsafeRawPointer, count: Int) -> IOOutcome {
        while true {
            let n = systemSend(fd, buffer, count, noSignal)
            if n >= 0 { return n == 0 ? .wouldBlock : .moved(n) }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed(errno)
        }
    }

    /// Writes the `count` buffers described by `vectors` with one gathering call, never raising SIGPIPE.
    static func send(_ fd: Int32, vectors: UnsafeMutablePointer<iovec>, count: Int) -> IOOutcome {
        var message = msghdr()
        message.msg_iov = vectors
        message.msg_iovlen = .init(count)
        while true {
            let n = sendmsg(fd, &message, noSignal)
            if n >= 0 { return n == 0 ? .wouldBlock : .moved(n) }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed(errno)
        }
    }

    // MARK: - Closing

    /// Closes a descriptor; the result is ignored because there is nothing useful to do on failure.
    package static func close(_ fd: Int32) {
        _ = systemClose(fd)
    }

    /// Sends FIN after the queued bytes while still allowing reads (a lingering close).
    static func shutdownWrite(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Closes so that the kernel sends RST instead of FIN (SO_LINGER on with a zero timeout).
    static func reset(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        _ = systemClose(fd)
    }

    // MARK: - Platform spellings

    #if canImport(Glibc)
    static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    static let streamType = SOCK_STREAM
    private static let noSignal: Int32 = 0
    #endif
}

// Free functions that the `Sys` members shadow by name.
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemSend(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(fd, buffer, count, flags)
}
private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }
private func systemAccept(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>) -> Int32 {
    accept(fd, address, length)
}

/// A failed socket call during listening, kept internal; ``MockServerError`` carries the sentence.
struct SocketFailure: Error {
    let call: String
    let code: Int32
}
