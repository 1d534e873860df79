#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wake-up pipes, clocks and thread identity for the event loops.
extension Sys {
    /// A non-blocking pipe used to wake an event loop from another thread.
    static func makeWakePipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        configureLoopDescriptor(fds[0])
        configureLoopDescriptor(fds[1])
        return (fds[0], fds[1])
    }

    /// Writes one byte to a wake pipe; a full pipe already guarantees a wake-up.
    static func signal(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }

    /// Empties a wake pipe.
    static func drain(_ fd: Int32) {
        var scratch = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let size = MemoryLayout.size(ofValue: scratch)
        while withUnsafeMutableBytes(of: &scratch, { read(fd, $0.baseAddress, size) }) == size {}
    }

    /// Nanoseconds on a monotonic clock (unrelated to wall time).
    package static func monotonicNanos() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }

    /// Seconds since 1970 (wall clock), for the `Date` header.
    static func unixSeconds() -> Int {
        Int(time(nil))
    }

    /// The broken-down UTC time for `seconds` since 1970.
    static func utc(_ seconds: Int) -> tm {
        var value = time_t(seconds)
        var result = tm()
        gmtime_r(&value, &result)
        return result
    }

    /// Names the calling thread for `top`, `perf` and debuggers (at most 15 characters show on Linux).
    static func nameCurrentThread(_ name: String) {
        #if os(Linux)
        _ = LinuxSymbols.shared?.setThreadName?(pthread_self(), String(name.prefix(15)))
        #elseif canImport(Darwin)
        _ = pthread_setname_np(name)
        #endif
    }

    /// An identifier of the calling thread, comparable with `==`.
    static func currentThreadID() -> UInt {
        #if canImport(Darwin)
        return UInt(bitPattern: pthread_self())
        #else
        return UInt(pthread_self())
        #endif
    }
}

extension Sys {
    /// Whether the process can open `count` more descriptors now: each is opened (on `/dev/null`) and closed
    /// again. Only a shortage (`EMFILE`, `ENFILE`) counts as `false`.
    package static func descriptorsLeft(_ count: Int) -> Bool {
        var opened: [Int32] = []
        defer { opened.forEach { Sys.close($0) } }
        for _ in 0..<count {
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return errno != EMFILE && errno != ENFILE }
            opened.append(fd)
        }
        return true
    }

    /// The process's soft limit on open descriptors (`ulimit -n`), or 0 when it cannot be read.
    package static var descriptorLimit: UInt64 {
        var limits = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limits) == 0 else { return 0 }
        return UInt64(limits.rlim_cur)
    }
}
