// Why the package locks with `Lock` (Sources/ServiceReplayShared) and not `Synchronization.Mutex`: ThreadSanitizer on
// Linux reports the data a contended Mutex guards as raced, although the lock works (the count printed is
// exact). Run it:
//
//     swiftc -sanitize=thread -O Tests/Sanitizers/MutexUnderTSan.swift -o /tmp/mutex-tsan && /tmp/mutex-tsan
//
// With Swift 6.3 on Linux it prints "WARNING: ThreadSanitizer: Swift access race" inside `withLock` and then
// 800000. Mutex's contended path waits on a futex inside the standard library, which is not instrumented, so
// TSan never sees the unlock that orders one thread's increment before the next. With `Lock` in place of
// `Mutex` (pthread_mutex_lock, which TSan intercepts) the same program prints only the count.
import Synchronization
import Dispatch

final class Counter: @unchecked Sendable {
    var value = 0
}

let counter = Counter()
let lock = Mutex(())
DispatchQueue.concurrentPerform(iterations: 4) { _ in
    for _ in 0..<200_000 {
        lock.withLock { _ in counter.value += 1 }
    }
}
print(counter.value)
