import Foundation
@testable import MockServer
import Testing

/// Upstream failures while recording: the client gets a 502 saying what happened, and the cassette keeps a
/// transport failure that replay reproduces on the wire.
@Suite struct RecordModeFailureTests {
    struct FailureCase: Sendable, CustomTestStringConvertible {
        let name: String
        let kind: TransportFailure.Kind
        /// How the replayed failure looks to a raw client.
        let replayed: RawHTTPClient.Ending
        var testDescription: String { name }
    }

    static let cases = [
        FailureCase(name: "refused", kind: .refused, replayed: .reset),
        FailureCase(name: "reset", kind: .reset, replayed: .reset),
        FailureCase(name: "stall", kind: .timeout, replayed: .timedOut),
    ]

    @Test(arguments: cases)
    func upstreamFailure_answers502_andIsRecorded_asAFailureThatReplaysTheSame(_ failure: FailureCase) async throws {
        try await withUpstream { upstream, _ in
            // Given an upstream that refuses (nothing listens), resets, or never answers
            let target = failure.kind == .refused ? URL(string: "http://127.0.0.1:\(try await closedPort())")! : upstream
            // (only a stall waits for the timeout; the others get a generous one, for a loaded machine)
            let timeout: Duration = failure.kind == .timeout ? .seconds(1) : .seconds(20)
            let cassette = try await withRecordingServer(upstream: target, timeout: timeout) { server, base in
                // When a request goes through the proxy
                let response = try await rawExchange(base, "GET /\(failure.name) HTTP/1.1\r\nHost: proxy")
                // Then the client gets a 502 naming the failure
                #expect(response.status == 502)
                #expect(response.headers["X-MockServer-Upstream-Failure"] == failure.kind.rawValue)
                let body = try CassetteJSON(parsing: response.body)
                #expect(body["error"] == .string("upstream_\(failure.kind.rawValue)"))
                #expect(body["upstream"] == .string(target.absoluteString))
                #expect(body["message"]?.stringValue?.hasPrefix("The upstream \(target.absoluteString) ") == true)
                #expect(server.journal.entries.map(\.outcome.status) == [502])
                return try #require(server.recordedCassette)
            }
            // And the cassette holds the transport failure
            let recorded = try #require(cassette.interactions.first)
            #expect(recorded.failure?.kind == failure.kind)
            #expect(recorded.failure?.message?.isEmpty == false)
            #expect(recorded.response == nil)
            // And replaying it reproduces the failure on the wire
            let decoded = try Cassette(jsonData: cassette.encoded(), source: "recorded")
            try await withMockServer(cassettes: [decoded], configuration: .init(faults: .none)) { server in
                let client = try RawHTTPClient(server.baseURL!)
                defer { client.close() }
                try client.send("GET /\(failure.name) HTTP/1.1\r\nHost: proxy\r\n\r\n")
                let (bytes, ending) = await client.readToEnd(timeout: failure.replayed == .timedOut ? .milliseconds(300) : .seconds(10))
                #expect(bytes.isEmpty)
                #expect(ending == failure.replayed)
            }
        }
    }
}
