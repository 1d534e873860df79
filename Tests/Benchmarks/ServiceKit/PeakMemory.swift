#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The growth of resident memory at its peak while `work` runs, in kB, or `nil` where the kernel does not
/// offer a resettable peak (`/proc/self/clear_refs`, Linux only). Freed heap pages are handed back first so
/// that the peak counts what `work` touches, not what earlier work left resident.
func peakMemoryGrowth(_ work: () throws -> Void) rethrows -> Int? {
    #if os(Linux)
    _ = mallocTrim?(0)
    guard let baseline = statusField("VmRSS"), resetPeak() else {
        return nil
    }
    try work()
    return statusField("VmHWM").map { $0 - baseline }
    #else
    try work()
    return nil
    #endif
}

#if os(Linux)
/// Writing 5 to `clear_refs` resets the peak resident size (`VmHWM`) to the current one.
private func resetPeak() -> Bool {
    let descriptor = open("/proc/self/clear_refs", O_WRONLY)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return write(descriptor, "5", 1) == 1
}

private func statusField(_ name: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
        return Int(line.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first ?? "")
    }
    return nil
}

private let mallocTrim: (@convention(c) (Int) -> Int32)? = {
    guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "malloc_trim") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
}()
#endif
#endif
