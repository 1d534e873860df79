/// Anything with a descriptor that an event loop watches: a server's listener, a client connection, a
/// connection to an upstream. The loop keeps them all in one table by descriptor and one ``TimerHeap``, and
/// knows nothing else of them: it hands each the readiness reports for its descriptor (``handle(_:)``) and
/// wakes it at the time it asked for (``timerFired()``).
///
/// A class rather than a protocol so that the loop's dispatch and the heap's bookkeeping stay direct
/// (stored, final) accesses on the hot path. Subclasses are confined to their loop's thread, like the loop's
/// own state.
class LoopDescriptor {
    /// The descriptor the loop watches; unique among the open descriptors of the process.
    final let fd: Int32
    // Maintained by TimerHeap; loop-confined, so exclusivity checks are off (see Connection).
    /// When the loop is to call ``timerFired()``; `.max` when not scheduled.
    @exclusivity(unchecked) final var scheduledWake: UInt64 = .max
    /// The position in the loop's ``TimerHeap``, or -1.
    @exclusivity(unchecked) final var timerSlot = -1

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
