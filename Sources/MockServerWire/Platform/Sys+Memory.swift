#if canImport(Glibc)
import Glibc
#endif

extension Sys {
    /// Hands the heap's free pages back to the system (`malloc_trim(0)` on glibc, which the Glibc module does
    /// not export, so it is found with `dlsym`). glibc keeps freed memory for reuse, so after a large,
    /// short-lived allocation such as a decoded cassette the process would otherwise stay that large.
    /// Elsewhere it does nothing: other allocators return memory by themselves.
    package static func releaseFreedMemory() {
        #if canImport(Glibc)
        _ = mallocTrim?(0)
        #endif
    }

    #if canImport(Glibc)
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
    #endif
}
