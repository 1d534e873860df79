import Foundation

/// Runs `work` on a new thread with a stack of `stackSize` bytes and returns its result; the calling thread
/// blocks meanwhile. Shows that code fits in a small stack: Darwin gives secondary threads, Swift
/// concurrency's included, 512 KiB, where Linux gives 8 MiB.
package func runOnThread<T: Sendable>(stackSize: Int, _ work: @escaping @Sendable () -> T) -> T {
    let result = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        result.value = work()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return result.value!
}

/// Written by the worker thread before the semaphore signals, read after the wait: ordered by it.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
