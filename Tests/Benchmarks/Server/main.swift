#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation

/// `mockserver-bench COMMAND ...`: the programs the benchmark script (Tests/Benchmarks/run.sh) drives.
/// Each command is one small type.
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
    case "cassette":
        try CassetteCommand.run(Array(arguments.dropFirst()))
    case "lookup":
        LookupCommand.run()
    case "load":
        try LoadCommand.run(Array(arguments.dropFirst()))
    case "probe":
        try ProbeCommand.run(Array(arguments.dropFirst()))
    case "startstop":
        try await StartStopCommand.run(Array(arguments.dropFirst()))
    case "stream":
        try await StreamCommand.run(Array(arguments.dropFirst()))
    case "routing":
        try await RoutingCommand.run(Array(arguments.dropFirst()))
    case "capture-stream":
        try await CaptureStreamCommand.run(Array(arguments.dropFirst()))
    default:
        throw BenchmarkError(
            "Usage: mockserver-bench serve [--port N] | payload | cassette --interactions N --out FILE | lookup | load [--interactions N] | probe [--interactions N] [--requests M] [--journal CAPACITY] | startstop [--interactions N] [--runs R] | stream [--events N] [--runs R] | capture-stream --recorder PATH --out FILE [--events N] [--first M] | routing [--rounds R]"
        )
    }
} catch {
    FileHandle.standardError.write(Data("mockserver-bench: \(error)\n".utf8))
    exit(1)
}
#else
import Foundation

FileHandle.standardError.write(Data("mockserver-bench: unsupported on this platform; it runs on macOS and Linux.\n".utf8))
exit(1)
#endif
