import Foundation

/// `mockserver-bench COMMAND ...`: the programs the benchmark script (Tests/Benchmarks/run.sh) drives.
/// Each command is one file; later benchmarks (replay, lookup, load time, memory) add theirs here.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "serve":
        try await ServeCommand.run(Array(arguments.dropFirst()))
    case "payload":
        FileHandle.standardOutput.write(BenchmarkPayload.json)
    default:
        throw BenchmarkError("Usage: mockserver-bench serve [--port N] | payload")
    }
} catch {
    FileHandle.standardError.write(Data("mockserver-bench: \(error)\n".utf8))
    exit(1)
}
