#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation
import MockServer
import ServiceKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Times each way of turning the payload into `[User]`: median of `rounds` rounds, the paths interleaved
/// within a round so that a noisy neighbour slows them alike.
struct ResponsePathBenchmark {
    let users: Int
    let rounds = 5
    let payload: Data

    init(users: Int) {
        self.users = users
        payload = GitHubUsersPayload.json(users: users)
    }

    func run() async throws -> BenchmarkReport {
        var report = BenchmarkReport(
            header: "servicekit-bench: \(users) users, \(payload.count) bytes, "
                + "median of \(rounds) rounds, × JSONDecoder (.iso8601) in the same run")
        let decoding = try measureDecoding()
        report.add("JSONDecoder (.iso8601)", decoding.reference)
        report.add("JSONSerialization.jsonObject alone", decoding.serialization, of: decoding.reference)
        report.add("RawResponse alone (the parse, no mapping)", decoding.parse, of: decoding.reference)
        report.add(
            "decodeResponse, Decodable [User] (full path)", decoding.decodable, of: decoding.reference,
            target: 1.0)
        report.add("parse + accessor mapping, as the ServiceKit article shows", decoding.mapped, of: decoding.reference, target: 0.8)

        let sending = try await measureSending()
        report.add("URLSession + JSONDecoder from MockServer", sending.reference)
        report.add("WebServiceClient.send from MockServer", sending.client, of: sending.reference, target: 1.1)

        let memory = try measurePeakMemory()
        if let reference = memory.reference, let decodable = memory.decodable, let mapped = memory.mapped {
            report.add(memory: "peak memory growth, JSONDecoder", reference)
            report.add(memory: "peak memory growth, decodeResponse Decodable", decodable, of: reference, target: 1.5)
            report.add(memory: "peak memory growth, parse + accessor mapping", mapped, of: reference, target: 1.5)
        } else {
            report.note("peak memory: not measured here (needs Linux's /proc/self/clear_refs)")
        }
        return report
    }

    // MARK: Decoding in memory

    struct Decoding {
        var reference = 0.0, serialization = 0.0, parse = 0.0, decodable = 0.0, mapped = 0.0
    }

    private func measureDecoding() throws -> Decoding {
        var samples: [[Double]] = Array(repeating: [], count: 5)
        for round in 0...rounds {
            let times = [
                try time { _ = try DecodingPath.jsonDecoder.decode(payload) },
                try time { _ = try JSONSerialization.jsonObject(with: payload) },
                time { _ = RawResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: payload) },
                try time { _ = try DecodingPath.decodable.decode(payload) },
                try time { _ = try DecodingPath.mapped.decode(payload) },
            ]
            // Round 0 warms caches and lazily built formatters up and is not counted.
            if round > 0 {
                for (index, seconds) in times.enumerated() {
                    samples[index].append(seconds)
                }
            }
        }
        let medians = samples.map(median)
        return Decoding(
            reference: medians[0], serialization: medians[1], parse: medians[2], decodable: medians[3],
            mapped: medians[4])
    }

    // MARK: Over loopback

    struct Sending {
        var reference = 0.0, client = 0.0
    }

    private func measureSending() async throws -> Sending {
        let response = RecordedResponse(
            status: 200, headers: ["Content-Type": "application/json; charset=utf-8"],
            body: RecordedBody(payload, contentType: "application/json"))
        let cassette = Cassette(
            name: "users",
            interactions: [
                Interaction(request: RecordedRequest(method: "GET", target: "/users"), response: response)
            ])
        let server = try CassetteServer(cassettes: [cassette], configuration: .init(faults: .none))
        let baseURL = try await server.start()
        let client = WebServiceClient(baseURL: baseURL)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let url = baseURL.appendingPathComponent("users")
        var referenceSamples: [Double] = []
        var clientSamples: [Double] = []
        for round in 0...rounds {
            let reference = try await time {
                let (data, _) = try await session.data(from: url)
                _ = try decodeWithJSONDecoder(data)
            }
            let sent = try await time { _ = try await client.send(DecodableUsersService()) }
            if round > 0 {
                referenceSamples.append(reference)
                clientSamples.append(sent)
            }
        }
        await server.stop()
        return Sending(reference: median(referenceSamples), client: median(clientSamples))
    }

    // MARK: Memory

    struct Memory {
        var reference: Int?, decodable: Int?, mapped: Int?
    }

    /// Each path three times, alternating, each in a fresh process so that no heap is shaped by what ran
    /// before; the median growth of each.
    private func measurePeakMemory() throws -> Memory {
        let paths: [DecodingPath] = [.jsonDecoder, .decodable, .mapped]
        var samples: [[Int]] = Array(repeating: [], count: paths.count)
        for _ in 0..<3 {
            for (index, path) in paths.enumerated() {
                guard let growth = try path.peakMemoryGrowthInChildProcess(users: users) else { return Memory() }
                samples[index].append(growth)
            }
        }
        let medians = samples.map { $0.sorted()[1] }
        return Memory(reference: medians[0], decodable: medians[1], mapped: medians[2])
    }

    // MARK: Helpers

    private func time(_ work: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try work()
        return (clock.now - start).seconds
    }

    private func time(_ work: () async throws -> Void) async rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await work()
        return (clock.now - start).seconds
    }

    private func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
#endif
