import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A file size limit reached while writing a cassette is a write error to report, not a reason to die.
signal(SIGXFSZ, SIG_IGN)
exit(await Recorder.run(Array(CommandLine.arguments.dropFirst()), console: .standard))
