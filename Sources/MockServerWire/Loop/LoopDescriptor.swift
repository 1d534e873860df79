/// Anything with a descriptor that an event loop watches: a server's listener, a client connection, a
/// connection to an upstream. The loop keeps them all in one table by descriptor and one ``TimerHeap``, and
/// knows nothing else of them: it hands each the readiness reports for its descriptor (``handle(_:)``) and
/// wakes it at the time it asked for (``timerFired()``).
///
/// A class rather than a protocol so that the loop's dispatch and the heap's bookkeeping stay direct
/// (stored, final) accesses on the hot path. Subclasses are confined to their loop's thread, like the loop's
/// own state.
package class LoopDescriptor {
    /// The descriptor the loop watches; unique among the open descriptors of the process.
    package final let fd: Int32
    // Maintained by TimerHeap; loop-confined, so exclusivity checks are off (see Connection).
    /// When the loop is to call ``timerFired()``; `.max` when not scheduled.
    @exclusivity(unchecked) package final var scheduledWake: UInt64 = .max
    /// The position in the loop's ``TimerHeap``, or -1.
    @exclusivity(unchecked) package final var timerSlot = -1

    init(fd: Int32) {
        self.fd = fd
    }

    /// Reacts to a readiness report on ``fd`` (loop thread only). Every subclass overrides it.
    func handle(_ event: PollerEvent) {
        preconditionFailure("\(type(of: self)) is watched by an event loop but does not handle its reports")
    }

    /// Called by the loop at ``scheduledWake`` (loop thread only), after which it is no longer scheduled. The
    /// default does nothing.
    func timerFired() {}

    /// `server` stops on this loop (loop thread only): its listener stops accepting and its connections close.
    /// The default, for what belongs to no server, does nothing.
    func detach(from server: ServerContext) {}
}

/// What a ``DelegatedDescriptor`` passes its reports to: a loop client outside this module (the recorder's
/// connections to an upstream), which cannot subclass ``LoopDescriptor``: only an `open` class can be
/// subclassed in another module, and `open` would make it public.
package protocol LoopDescriptorDelegate: AnyObject {
    /// As ``LoopDescriptor/handle(_:)``.
    func handle(_ event: PollerEvent)
    /// As ``LoopDescriptor/timerFired()``.
    func timerFired()
}

/// A ``LoopDescriptor`` that passes its readiness reports and its timer to ``delegate``. It holds the delegate
/// strongly, as the loop's table would hold a subclass; the delegate lets go (sets it to `nil`) when it closes.
package final class DelegatedDescriptor: LoopDescriptor {
    package var delegate: (any LoopDescriptorDelegate)?

    package override init(fd: Int32) {
        super.init(fd: fd)
    }

    override func handle(_ event: PollerEvent) {
        delegate?.handle(event)
    }

    override func timerFired() {
        delegate?.timerFired()
    }
}
