import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A file size limit reached while writing a cassette is a write error to report, not a reason to die.
signal(SIGXFSZ, SIG_IGN)
// Let the main thread hand itself over to Dispatch before the command opens any descriptor: on Linux that
// hand-over needs one (for the main queue), and Dispatch traps without it when a low `ulimit -n` is used up.
await Task.yield()
exit(await Recorder.run(Array(CommandLine.arguments.dropFirst()), console: .standard))
