import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The test process's descriptor limit. Suites run their servers in parallel and hold over a thousand
/// descriptors at once; macOS shells start processes with a soft limit of 256 (Linux ones usually 1024 or
/// more), so the tests raise the soft limit themselves, up to the hard limit. Children started afterwards
/// (the built `recorder`) inherit it.
package enum DescriptorLimit {
    /// The most descriptors the tests want: Darwin refuses a soft limit above `OPEN_MAX` (10240).
    static let wanted: rlim_t = 10240

    /// The soft limit after raising it (once per process): the hard limit or ``wanted``, whichever is lower,
    /// or the current soft limit when that is already higher or the raise is refused.
    package static let raised: rlim_t = {
        var limits = current
        let target = min(limits.rlim_max, wanted)
        guard limits.rlim_cur < target else { return limits.rlim_cur }
        var raised = limits
        raised.rlim_cur = target
        return setrlimit(resource, &raised) == 0 ? target : limits.rlim_cur
    }()

    /// The soft and hard limits now (zero when they cannot be read).
    package static var current: rlimit {
        var limits = rlimit()
        _ = getrlimit(resource, &limits)
        return limits
    }

    /// Raises the soft limit (see ``raised``); cheap after the first call.
    package static func raise() {
        _ = raised
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
