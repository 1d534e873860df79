import Foundation

exit(Recorder.run(Array(CommandLine.arguments.dropFirst()), console: .standard))
