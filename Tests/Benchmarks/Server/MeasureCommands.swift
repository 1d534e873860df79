#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation
import MockServer

/// `mockserver-bench lookup`: ``LookupBenchmark`` at 10, 1,000 and 100,000 interactions, printed as
/// `lookup INTERACTIONS NANOSECONDS` lines.
enum LookupCommand {
    static func run() {
        for measurement in LookupBenchmark.measureLookup() {
            print("lookup \(measurement.interactions) \(String(format: "%.0f", measurement.nanosecondsPerLookup))")
        }
    }
}

/// `mockserver-bench load [--interactions N]`: loading a synthetic cassette of N (default 10,000)
/// interactions, and as the reference measured in the same run, parsing the same bytes with Foundation's
/// JSONSerialization (which builds no cassette at all). Prints `load MILLISECONDS BYTES` and
/// `reference MILLISECONDS`.
enum LoadCommand {
    static func run(_ arguments: [String]) throws {
        var interactions = 10_000
        if arguments.count == 2, arguments[0] == "--interactions", let value = Int(arguments[1]), value >= 1 {
            interactions = value
        } else if !arguments.isEmpty {
            throw BenchmarkError("load takes only --interactions N.")
        }
        let measurement = try LoadBenchmark.measureLoad(interactions: interactions)
        let data = LoadBenchmark.syntheticCassette(interactions: interactions).encoded()
        var reference = Double.infinity
        let clock = ContinuousClock()
        for _ in 0..<5 {
            let start = clock.now
            _ = try JSONSerialization.jsonObject(with: data)
            reference = min(reference, (clock.now - start).seconds)
        }
        print("load \(String(format: "%.1f", measurement.totalSeconds * 1000)) \(measurement.bytes)")
        print("reference \(String(format: "%.1f", reference * 1000))")
    }
}
#endif
