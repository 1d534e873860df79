#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation
import MockServer

/// Measurements of cassette loading, for the benchmark executable (never a timed unit test).
public enum LoadBenchmark {
    /// The outcome of ``measureLoad(interactions:repetitions:)``.
    public struct LoadMeasurement: Sendable, CustomStringConvertible {
        /// Interactions in the measured cassette.
        public let interactions: Int
        /// Size of the cassette file in bytes.
        public let bytes: Int
        /// Best time to parse and decode the file into a ``Cassette``, in seconds.
        public let decodeSeconds: Double
        /// Best time to build a ``ReplayEngine`` from the decoded cassette (index and cached responses), in seconds.
        public let engineSeconds: Double

        /// Decode plus engine build: what serving a cassette costs before the first request.
        public var totalSeconds: Double { decodeSeconds + engineSeconds }

        /// One line: interactions, size, and both times in milliseconds.
        public var description: String {
            let megabytes = Double(bytes) / 1_048_576
            return "load \(interactions) interactions (\(String(format: "%.1f", megabytes)) MB): decode "
                + "\(String(format: "%.1f", decodeSeconds * 1000)) ms + engine \(String(format: "%.1f", engineSeconds * 1000)) ms = "
                + "\(String(format: "%.1f", totalSeconds * 1000)) ms"
        }
    }

    /// A recorded-looking cassette of `interactions` GitHub-style exchanges: distinct `GET /users?since=N`
    /// requests with two headers, answered by a ~300-byte JSON body and four headers.
    public static func syntheticCassette(interactions: Int) -> Cassette {
        var list: [Interaction] = []
        list.reserveCapacity(interactions)
        let recordedAt = Date(timeIntervalSince1970: 1_795_255_200)
        for index in 0..<interactions {
            let request = RecordedRequest(
                method: "GET",
                target: "/users?since=\(index)&per_page=1",
                headers: HTTPHeaders(pairs: [("Accept", "application/vnd.github+json"), ("User-Agent", "bench/1.0")])
            )
            let body: CassetteJSON = [
                [
                    "login": .string("user\(index)"), "id": .number(JSONNumber(index + 1)),
                    "node_id": "MDQ6VXNlcjE=", "avatar_url": .string("https://avatars.githubusercontent.com/u/\(index + 1)?v=4"),
                    "url": .string("https://api.github.com/users/user\(index)"), "html_url": .string("https://github.com/user\(index)"),
                    "type": "User", "site_admin": false, "score": 1.5,
                ]
            ]
            let response = RecordedResponse(
                status: 200,
                headers: HTTPHeaders(pairs: [
                    ("Content-Type", "application/json; charset=utf-8"),
                    ("Link", "<https://api.github.com/users?since=\(index + 1)&per_page=1>; rel=\"next\""),
                    ("X-RateLimit-Remaining", "59"), ("ETag", "W/\"\(index)\""),
                ]),
                body: .json(body)
            )
            list.append(Interaction(request: request, response: response, recordedAt: recordedAt, durationMs: 80 + index % 40))
        }
        return Cassette(name: "synthetic", upstream: "https://api.github.com", recordedAt: recordedAt, interactions: list)
    }

    /// Writes a synthetic cassette of `interactions` to memory, then measures decoding it and building a
    /// ``ReplayEngine`` over it, keeping the best of `repetitions` runs of each.
    public static func measureLoad(interactions: Int = 10_000, repetitions: Int = 5) throws(MockServerError) -> LoadMeasurement {
        let data = syntheticCassette(interactions: interactions).encoded()
        var bestDecode = Double.infinity
        var bestEngine = Double.infinity
        let clock = ContinuousClock()
        for _ in 0..<max(1, repetitions) {
            let decodeStart = clock.now
            let cassette = try Cassette(jsonData: data, source: "synthetic.json")
            bestDecode = min(bestDecode, (clock.now - decodeStart).seconds)
            let engineStart = clock.now
            withExtendedLifetime(ReplayEngine(cassettes: [cassette])) {}
            bestEngine = min(bestEngine, (clock.now - engineStart).seconds)
        }
        return LoadMeasurement(interactions: interactions, bytes: data.count, decodeSeconds: bestDecode, engineSeconds: bestEngine)
    }
}

extension Duration {
    /// The duration in seconds as a double.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
#endif
