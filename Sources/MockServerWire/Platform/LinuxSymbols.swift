#if os(Linux)
import Glibc

/// The few Linux calls the Glibc module map does not export (`sys/epoll.h`, `accept4`,
/// `pthread_setname_np`), resolved once
/// with `dlsym` from the C library already loaded in the process; no C shim module is needed.
struct LinuxSymbols: @unchecked Sendable {
    typealias EpollCreate1 = @convention(c) (Int32) -> Int32
    typealias EpollCtl = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    typealias EpollWait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32
    typealias Accept4 = @convention(c) (Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32) -> Int32
    typealias SetThreadName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32

    let epollCreate1: EpollCreate1
    let epollCtl: EpollCtl
    let epollWait: EpollWait
    let accept4: Accept4?
    let setThreadName: SetThreadName?

    /// The resolved symbols, or `nil` when epoll is unavailable (the poll backend is used then).
    static let shared: LinuxSymbols? = {
        guard let process = dlopen(nil, RTLD_NOW) else { return nil }
        guard let create = dlsym(process, "epoll_create1"),
            let ctl = dlsym(process, "epoll_ctl"),
            let wait = dlsym(process, "epoll_wait")
        else { return nil }
        return LinuxSymbols(
            epollCreate1: unsafeBitCast(create, to: EpollCreate1.self),
            epollCtl: unsafeBitCast(ctl, to: EpollCtl.self),
            epollWait: unsafeBitCast(wait, to: EpollWait.self),
            accept4: dlsym(process, "accept4").map { unsafeBitCast($0, to: Accept4.self) },
            setThreadName: dlsym(process, "pthread_setname_np").map { unsafeBitCast($0, to: SetThreadName.self) }
        )
    }()

    // Values from <sys/epoll.h>; identical on every Linux architecture Swift supports.
    static let epollIn: UInt32 = 0x001
    static let epollOut: UInt32 = 0x004
    static let epollErr: UInt32 = 0x008
    static let epollHup: UInt32 = 0x010
    static let epollExclusive: UInt32 = 1 << 28
    static let epollCtlAdd: Int32 = 1
    static let epollCtlDel: Int32 = 2
    static let epollCtlMod: Int32 = 3
    static let epollCloexec: Int32 = Int32(O_CLOEXEC)

    /// `struct epoll_event` is packed on x86 (12 bytes) and naturally aligned elsewhere (16 bytes).
    #if arch(x86_64) || arch(i386)
    static let eventSize = 12
    static let eventDataOffset = 4
    #else
    static let eventSize = 16
    static let eventDataOffset = 8
    #endif
}
#endif
