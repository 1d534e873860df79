import Foundation
import ServiceReplayShared
import Testing

/// ServiceReplayShared's `URLProtocolClientThread`, where a URLProtocol calls its client. On Apple platforms the
/// work is queued on the run loop of the thread that ran `startLoading`; no Linux test can show that, so it is
/// checked by reading only. `StubURLProtocol`'s streamed parts and MockServer's routed sessions go through it.
@Suite struct URLProtocolClientThreadTests {
    #if !canImport(Darwin)
    /// FoundationNetworking accepts client calls from any thread and its `startLoading` thread has no run
    /// loop to perform on: the work runs at once, in order, on the calling thread.
    @Test func onLinux_workRunsAtOnce_inOrder() {
        let clientThread = URLProtocolClientThread()
        let ran = Lock([Int]())
        clientThread.perform { ran.withLock { $0.append(1) } }
        clientThread.perform { ran.withLock { $0.append(2) } }
        #expect(ran.withLock { $0 } == [1, 2])
    }
    #endif
}
