import Foundation

exit(await Recorder.run(Array(CommandLine.arguments.dropFirst()), console: .standard))
