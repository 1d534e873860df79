/// The readiness an event loop asks for on a descriptor.
package struct Interest: OptionSet, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package static let read = Interest(rawValue: 1)
    package static let write = Interest(rawValue: 2)
}

/// One readiness report. Reports are hints: the reader and writer still act only on what the
/// system calls say.
package struct PollerEvent {
    package var fd: Int32
    package var readable: Bool
    var writable: Bool
    /// The peer reset the connection, or both directions are shut down; on Darwin's poll also when
    /// the peer only sent FIN (then together with `readable`, and the input must still be read).
    package var hangup: Bool
}

/// Which readiness mechanism an event loop uses.
enum PollerBackend: Sendable {
    /// epoll on Linux, poll elsewhere.
    case automatic
    /// poll(2) everywhere; slower with many connections but portable.
    case poll
    /// poll(2) reporting a peer's FIN as readable and hangup, as Darwin's poll does. Test-only: it lets
    /// Linux run the connection against Darwin's reports (Linux's poll reports POLLHUP only once both
    /// directions are shut down).
    case pollWithDarwinHangup

    func make() -> any Poller {
        switch self {
        case .automatic:
            #if os(Linux)
            if let epoll = EpollPoller() { return epoll }
            #endif
            return PollPoller()
        case .poll:
            return PollPoller()
        case .pollWithDarwinHangup:
            return PollPoller(reportsPeerCloseAsHangup: true)
        }
    }
}

/// A readiness mechanism owned by one event loop; used only on that loop's thread, except that
/// ``add(_:interest:shared:)`` for a listener happens there too.
package protocol Poller: AnyObject {
    /// Whether a listener that several loops watch wakes only one of them per connection. epoll does
    /// (EPOLLEXCLUSIVE); poll(2) wakes every loop, and all but one then find nothing to accept.
    var wakesOneLoopPerConnection: Bool { get }
    /// Starts watching `fd`. `shared` marks a listening socket that several loops may watch; epoll then
    /// wakes only one of them per connection (EPOLLEXCLUSIVE).
    func add(_ fd: Int32, interest: Interest, shared: Bool)
    func modify(_ fd: Int32, interest: Interest)
    /// Stops watching `fd`, which stays open.
    func remove(_ fd: Int32)
    /// Forgets `fd` because it is about to be closed (epoll drops closed descriptors by itself).
    func forgetClosing(_ fd: Int32)
    /// Waits up to `timeoutMilliseconds` (-1: forever) and replaces `events` with what is ready.
    func wait(timeoutMilliseconds: Int32, into events: inout [PollerEvent])
}
