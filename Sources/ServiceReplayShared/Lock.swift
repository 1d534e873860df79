#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a POSIX mutex: the one lock type of the package.
///
/// It replaces `Synchronization.Mutex` because ThreadSanitizer cannot see that mutex on Linux: when it
/// is contended, its futex path runs inside the uninstrumented standard library, and TSan reports the
/// data it guards as raced (`Tests/Sanitizers/MutexRace.swift` shows it in twenty lines). TSan
/// intercepts `pthread_mutex_lock`, so it sees this one.
///
/// The lock is not recursive: calling ``withLock(_:)`` again from inside its body deadlocks.
package final class Lock<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Only touched with the mutex held, which is what makes the access exclusive: the runtime's own check
    /// (two calls into the runtime per access) would only repeat it, on every request of a server.
    @exclusivity(unchecked) private var value: Value

    /// A lock guarding `value`.
    package init(_ value: sending Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed with \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value and returns what it returns; rethrows what it throws.
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
