#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation
import MockServer

/// `mockserver-bench startstop [--interactions N] [--runs R]`: what one short test pays to start and stop a
/// replay server on a cassette file (N synthetic interactions, default 100, saved to a temporary folder),
/// with an empty test body. Measured both ways in the same run, alternating in blocks of ten:
/// - `uncached`: the cassette read from disk and prepared for every test (`Cassette.load` then
///   `withMockServer(cassettes:)`), as `withMockServer(replaying:)` did before it shared its reads;
/// - `cached`: `withMockServer(replaying:)`, which reads and prepares each file once per process.
/// Prints `uncached MICROSECONDS`, `cached MICROSECONDS` (means per test) and `ratio CACHED/UNCACHED`.
enum StartStopCommand {
    static func run(_ arguments: [String]) async throws {
        var interactions = 100
        var runs = 200
        var index = 0
        while index < arguments.count {
            guard index + 1 < arguments.count, let value = Int(arguments[index + 1]), value >= 1 else {
                throw BenchmarkError("startstop takes --interactions N and --runs R, each a whole number of at least 1.")
            }
            switch arguments[index] {
            case "--interactions": interactions = value
            case "--runs": runs = value
            default: throw BenchmarkError("Unknown argument '\(arguments[index])' for startstop.")
            }
            index += 2
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("startstop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("synthetic.json")
        try LoadBenchmark.syntheticCassette(interactions: interactions).save(to: file)

        let configuration = CassetteServer.Configuration(faults: .none)
        var uncached = Duration.zero
        var cached = Duration.zero
        let clock = ContinuousClock()
        // One of each first, uncounted: code paths warm and the file in the cache.
        try await withMockServer(replaying: "synthetic", in: folder, configuration: configuration) { _ in }
        for block in 0..<((runs + 9) / 10) {
            for _ in 0..<min(10, runs - block * 10) {
                uncached += try await clock.measure {
                    try await withMockServer(cassettes: [Cassette.load(from: file)], configuration: configuration) { _ in }
                }
                cached += try await clock.measure {
                    try await withMockServer(replaying: "synthetic", in: folder, configuration: configuration) { _ in }
                }
            }
        }
        let uncachedMicroseconds = uncached.microseconds / Double(runs)
        let cachedMicroseconds = cached.microseconds / Double(runs)
        print("uncached \(String(format: "%.0f", uncachedMicroseconds))")
        print("cached \(String(format: "%.0f", cachedMicroseconds))")
        print("ratio \(String(format: "%.2f", cachedMicroseconds / uncachedMicroseconds))")
    }
}

private extension Duration {
    var microseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }
}
#endif
