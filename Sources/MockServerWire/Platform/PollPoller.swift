#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// poll(2): the portable backend (used on Darwin, and on Linux when asked for or when epoll is missing).
final class PollPoller: Poller {
    private var interests: [Int32: Interest] = [:]
    private var descriptors: [pollfd] = []
    private var isDirty = true
    /// Extra events asked for and reported as hangup (see ``PollerBackend/pollWithDarwinHangup``).
    private let peerCloseEvents: Int16
    let wakesOneLoopPerConnection = false

    /// `reportsPeerCloseAsHangup` makes Linux report a peer's FIN as Darwin does (POLLIN|POLLHUP), via
    /// POLLRDHUP; Darwin already does, so there it changes nothing.
    init(reportsPeerCloseAsHangup: Bool = false) {
        #if os(Linux)
        peerCloseEvents = reportsPeerCloseAsHangup ? Self.pollRDHUP : 0
        #else
        peerCloseEvents = 0
        #endif
    }

    #if os(Linux)
    /// POLLRDHUP (<poll.h>, needs _GNU_SOURCE, so not imported): the peer shut down its writing side.
    private static let pollRDHUP: Int16 = 0x2000
    #endif

    func add(_ fd: Int32, interest: Interest, shared: Bool) {
        interests[fd] = interest
        isDirty = true
    }

    func modify(_ fd: Int32, interest: Interest) {
        interests[fd] = interest
        isDirty = true
    }

    func remove(_ fd: Int32) {
        interests[fd] = nil
        isDirty = true
    }

    func forgetClosing(_ fd: Int32) {
        remove(fd)
    }

    func wait(timeoutMilliseconds: Int32, into events: inout [PollerEvent]) {
        events.removeAll(keepingCapacity: true)
        if isDirty {
            descriptors = interests.map { fd, interest in
                var mask: Int16 = 0
                if interest.contains(.read) { mask |= Int16(POLLIN) | peerCloseEvents }
                if interest.contains(.write) { mask |= Int16(POLLOUT) }
                return pollfd(fd: fd, events: mask, revents: 0)
            }
            isDirty = false
        }
        let count = poll(&descriptors, nfds_t(descriptors.count), timeoutMilliseconds)
        guard count > 0 else { return }
        for index in descriptors.indices where descriptors[index].revents != 0 {
            let flags = descriptors[index].revents
            descriptors[index].revents = 0
            events.append(
                PollerEvent(
                    fd: descriptors[index].fd,
                    readable: flags & Int16(POLLIN) != 0,
                    writable: flags & Int16(POLLOUT) != 0,
                    hangup: flags & (Int16(POLLERR | POLLHUP | POLLNVAL) | peerCloseEvents) != 0
                ))
        }
    }
}
