#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation
import MockServer

/// Measurements of request lookup, for the benchmark executable (never a timed unit test).
public enum LookupBenchmark {
    /// The outcome of measuring lookups against one cassette size.
    public struct LookupMeasurement: Sendable, CustomStringConvertible {
        /// Interactions in the cassette.
        public let interactions: Int
        /// Lookups timed.
        public let lookups: Int
        /// Mean cost of one ``ReplayEngine/answer(_:headFromGET:)``, in nanoseconds (best of the repetitions).
        public let nanosecondsPerLookup: Double

        /// One line: size and cost.
        public var description: String {
            "lookup in \(interactions) interactions: \(String(format: "%.0f", nanosecondsPerLookup)) ns"
        }
    }

    /// A cassette of `interactions` distinct requests, half `GET /users?since=N&per_page=1` and half
    /// `POST /search` with a JSON body, each answered by a small JSON response.
    public static func lookupCassette(interactions: Int) -> Cassette {
        var list: [Interaction] = []
        list.reserveCapacity(interactions)
        for index in 0..<interactions {
            let request = lookupRequest(index)
            list.append(
                Interaction(
                    request: RecordedRequest(request),
                    response: RecordedResponse(
                        status: 200, headers: ["Content-Type": "application/json"],
                        body: .json(["id": .number(JSONNumber(index)), "ok": true]))
                ))
        }
        return Cassette(name: "lookup-\(interactions)", interactions: list)
    }

    /// The request that matches interaction `index` of ``lookupCassette(interactions:)``.
    public static func lookupRequest(_ index: Int) -> HTTPRequest {
        if index.isMultiple(of: 2) {
            return HTTPRequest(method: "GET", target: "/users?since=\(index)&per_page=1", headers: ["Accept": "application/json"])
        }
        return HTTPRequest(
            method: "POST", target: "/search", headers: ["Content-Type": "application/json"],
            body: Data(#"{"page": 1, "query": "term \#(index)"}"#.utf8))
    }

    /// Times ``ReplayEngine/answer(_:headFromGET:)`` for each cassette size with the same mix of requests (1,000 distinct
    /// matching requests spread over the cassette, cycled `lookups` times), keeping the best of
    /// `repetitions`. Flat lookup shows as similar figures for 10 and 100,000 interactions.
    public static func measureLookup(
        interactionCounts: [Int] = [10, 1_000, 100_000],
        lookups: Int = 200_000,
        repetitions: Int = 3
    ) -> [LookupMeasurement] {
        let clock = ContinuousClock()
        return interactionCounts.map { count in
            let engine = ReplayEngine(cassettes: [lookupCassette(interactions: count)])
            // 1,000 requests spread over the whole cassette in a fixed scrambled order.
            let requests = (0..<1_000).map { step in lookupRequest((step * 7_919 + 13) % count) }
            var best = Double.infinity
            var matched = 0
            for _ in 0..<max(1, repetitions) {
                let start = clock.now
                for lookup in 0..<lookups {
                    if engine.answer(requests[lookup % requests.count]).interaction != nil { matched += 1 }
                }
                best = min(best, (clock.now - start).seconds)
            }
            precondition(matched == lookups * max(1, repetitions), "benchmark requests must all match")
            return LookupMeasurement(interactions: count, lookups: lookups, nanosecondsPerLookup: best / Double(lookups) * 1e9)
        }
    }
}
#endif
