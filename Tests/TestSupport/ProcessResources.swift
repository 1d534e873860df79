import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What this process holds right now, for the soak runs: open descriptors and resident memory.
package enum ProcessResources {
    /// How many descriptors are open: each number below the soft limit (at most 65,536 are looked at) that
    /// `fcntl` knows. Works wherever POSIX does, unlike listing `/proc/self/fd`.
    package static var openDescriptors: Int {
        let limit = min(Int(DescriptorLimit.current.rlim_cur), 65_536)
        return (0..<Int32(limit)).count { fcntl($0, F_GETFD) != -1 }
    }

    /// The resident set size in bytes after freed heap pages are handed back to the system, so that it counts
    /// what is still in use; `nil` where `/proc/self/statm` does not exist (everywhere but Linux).
    package static var residentBytes: Int? {
        #if os(Linux)
        _ = mallocTrim?(0)
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
        #else
        return nil
        #endif
    }

    #if os(Linux)
    /// glibc's `malloc_trim`, looked up at run time: musl has none.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
    #endif
}
