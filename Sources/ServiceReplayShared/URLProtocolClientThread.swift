import Foundation

/// Where a `URLProtocol` may call its client: the thread that ran its `startLoading`. Made inside
/// `startLoading`, it runs later work (data arriving on another thread) there.
///
/// Apple's URLSession requires every client call, and calls `stopLoading`, on the thread that ran
/// `startLoading` (Apple's CustomHTTPProtocol sample does the same: its client thread and the run loop modes
/// it was loading in), so on Darwin the work is performed on that thread's run loop, in order. A check in
/// the work of whether `stopLoading` ran is then free of races with it. FoundationNetworking accepts client
/// calls from any thread and queues them itself, and its `startLoading` runs on a Dispatch queue with no
/// run loop to perform on, so on Linux the work runs at once on the calling thread.
///
/// Unchecked `Sendable`: on Darwin it holds a `CFRunLoop`, whose functions Core Foundation documents as
/// callable from any thread; on Linux it holds nothing.
package final class URLProtocolClientThread: @unchecked Sendable {
    #if canImport(Darwin)
    private let runLoop: CFRunLoop
    private let modes: CFArray
    #endif

    /// The calling thread, which must be the one running `startLoading`.
    package init() {
        #if canImport(Darwin)
        runLoop = CFRunLoopGetCurrent()
        // As CustomHTTPProtocol does: the default mode, and the one the loader runs in now.
        var modes: [CFString] = [CFRunLoopMode.defaultMode.rawValue]
        if let current = RunLoop.current.currentMode, current != .default { modes.append(current.rawValue as CFString) }
        self.modes = modes as CFArray
        #endif
    }

    /// Runs `work` where the protocol's client may be called: queued on the `startLoading` thread's run loop
    /// (Darwin, in the order of the calls), or at once on the calling thread (Linux).
    package func perform(_ work: @escaping @Sendable () -> Void) {
        #if canImport(Darwin)
        CFRunLoopPerformBlock(runLoop, modes) { work() }
        CFRunLoopWakeUp(runLoop)
        #else
        work()
        #endif
    }
}
