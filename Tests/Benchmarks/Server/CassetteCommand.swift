#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation
import MockServer

/// `mockserver-bench cassette --interactions N --out FILE`: writes a cassette whose interaction 0 answers
/// `GET /` with ``BenchmarkPayload`` (the request wrk sends) and whose other N-1 interactions are the
/// recorded-looking GitHub exchanges of ``LoadBenchmark/syntheticCassette(interactions:)``, so the same
/// request is looked up among 1 or 100,000 interactions.
enum CassetteCommand {
    static func run(_ arguments: [String]) throws {
        var interactions = 1
        var output: String?
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--interactions" where index + 1 < arguments.count:
                guard let value = Int(arguments[index + 1]), value >= 1 else { throw BenchmarkError("--interactions needs a whole number of at least 1.") }
                interactions = value
            case "--out" where index + 1 < arguments.count:
                output = arguments[index + 1]
            default:
                throw BenchmarkError("Unknown argument '\(arguments[index])' for cassette.")
            }
            index += 2
        }
        guard let output else { throw BenchmarkError("cassette needs --out FILE.") }
        try cassette(interactions: interactions).save(to: URL(fileURLWithPath: output), overwrite: true)
    }

    /// The cassette of `interactions` interactions described above.
    static func cassette(interactions: Int) -> Cassette {
        var cassette = LoadBenchmark.syntheticCassette(interactions: interactions - 1)
        cassette.name = "bench-\(interactions)"
        let payload = Interaction(
            request: RecordedRequest(method: "GET", target: "/"),
            response: RecordedResponse(
                status: 200, headers: ["Content-Type": "application/json"],
                body: RecordedBody(BenchmarkPayload.json, contentType: "application/json")))
        cassette.interactions.insert(payload, at: 0)
        return cassette
    }
}
#endif
