#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation
import ServiceKit

/// `servicekit-bench [--users N]`: ServiceKit's response path against hand-written Foundation code on a
/// generated GitHub-style `GET /users` body, every figure a ratio to `JSONDecoder` measured in the same run.
/// Prints one line per figure; a missed target is marked `MISSED` and makes the exit status 1.
///
/// `servicekit-bench --peak-memory PATH --users N` is the child process that measures one path's peak
/// memory growth in a fresh heap; it prints kilobytes.
var users = 5_000
var arguments = Array(CommandLine.arguments.dropFirst())
var memoryPath: DecodingPath?
if arguments.count >= 2, arguments[0] == "--peak-memory" {
    memoryPath = DecodingPath(rawValue: arguments[1])
    arguments.removeFirst(2)
}
if arguments.count == 2, arguments[0] == "--users", let value = Int(arguments[1]), value >= 1 {
    users = value
} else if !arguments.isEmpty {
    FileHandle.standardError.write(Data("servicekit-bench: the only option is --users N (default 5000).\n".utf8))
    exit(2)
}
if let memoryPath {
    print(try memoryPath.measurePeakMemoryGrowth(users: users).map(String.init) ?? "unknown")
    exit(0)
}

let report = try await ResponsePathBenchmark(users: users).run()
print(report.text)
exit(report.allTargetsMet ? 0 : 1)
#else
import Foundation

FileHandle.standardError.write(Data("servicekit-bench: unsupported on this platform; it runs on macOS and Linux.\n".utf8))
exit(1)
#endif
