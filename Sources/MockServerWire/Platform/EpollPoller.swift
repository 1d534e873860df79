#if os(Linux)
import Glibc

/// Level-triggered epoll, reached through ``LinuxSymbols``.
final class EpollPoller: Poller {
    private let symbols: LinuxSymbols
    private let epoll: Int32
    private let capacity = 256
    private let buffer: UnsafeMutableRawPointer
    let wakesOneLoopPerConnection = true

    init?() {
        guard let symbols = LinuxSymbols.shared else { return nil }
        let epoll = symbols.epollCreate1(LinuxSymbols.epollCloexec)
        guard epoll >= 0 else { return nil }
        self.symbols = symbols
        self.epoll = epoll
        self.buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity * LinuxSymbols.eventSize, alignment: 8)
    }

    deinit {
        buffer.deallocate()
        Sys.close(epoll)
    }

    func add(_ fd: Int32, interest: Interest, shared: Bool) {
        control(LinuxSymbols.epollCtlAdd, fd, mask(interest) | (shared ? LinuxSymbols.epollExclusive : 0))
    }

    func modify(_ fd: Int32, interest: Interest) {
        control(LinuxSymbols.epollCtlMod, fd, mask(interest))
    }

    func remove(_ fd: Int32) {
        control(LinuxSymbols.epollCtlDel, fd, 0)
    }

    func forgetClosing(_ fd: Int32) {}

    func wait(timeoutMilliseconds: Int32, into events: inout [PollerEvent]) {
        events.removeAll(keepingCapacity: true)
        let count = symbols.epollWait(epoll, buffer, Int32(capacity), timeoutMilliseconds)
        guard count > 0 else { return }
        for index in 0..<Int(count) {
            let event = buffer + index * LinuxSymbols.eventSize
            let flags = event.loadUnaligned(as: UInt32.self)
            let fd = Int32(truncatingIfNeeded: event.loadUnaligned(fromByteOffset: LinuxSymbols.eventDataOffset, as: UInt64.self))
            events.append(
                PollerEvent(
                    fd: fd,
                    readable: flags & LinuxSymbols.epollIn != 0,
                    writable: flags & LinuxSymbols.epollOut != 0,
                    hangup: flags & (LinuxSymbols.epollErr | LinuxSymbols.epollHup) != 0
                ))
        }
    }

    private func mask(_ interest: Interest) -> UInt32 {
        (interest.contains(.read) ? LinuxSymbols.epollIn : 0) | (interest.contains(.write) ? LinuxSymbols.epollOut : 0)
    }

    private func control(_ operation: Int32, _ fd: Int32, _ flags: UInt32) {
        var event = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &event) { raw in
            raw.storeBytes(of: flags, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: UInt64(UInt32(bitPattern: fd)), toByteOffset: LinuxSymbols.eventDataOffset, as: UInt64.self)
            _ = symbols.epollCtl(epoll, operation, fd, raw.baseAddress)
        }
    }
}
#endif
