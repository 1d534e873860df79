import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared
@testable import MockServer
import Testing

/// Upstream failures while recording: the client gets a 502 (or 504) saying what happened, or, once the
/// upstream's head has reached it, the answer cut short. An upstream that was reached and then broke its
/// answer is recorded as a transport failure that replay reproduces on the wire; one that could not be
/// reached, or sent nothing for the recorder's timeout, is not recorded at all.
@Suite struct RecordModeFailureTests {
    struct FailureCase: Sendable, CustomTestStringConvertible {
        let name: String
        let kind: TransportFailure.Kind
        /// How the replayed failure looks to a raw client.
        let replayed: RawHTTPClient.Ending
        var testDescription: String { name }
    }

    static let cases = [
        FailureCase(name: "broken-head", kind: .reset, replayed: .reset)
    ]

    @Test(arguments: cases)
    func reachedUpstreamFailure_answers502_andIsRecorded_asAFailureThatReplaysTheSame(_ failure: FailureCase) async throws {
        try await withUpstream { upstream, _ in
            // Given an upstream that sends part of its answer's head and then closes
            let cassette = try await withRecordingServer(upstream: upstream) { server, base in
                // When a request goes through the proxy
                let response = try await rawExchange(base, "GET /\(failure.name) HTTP/1.1\r\nHost: localhost")
                // Then the client gets a 502 naming the failure
                #expect(response.status == 502)
                #expect(response.headers["X-MockServer-Upstream-Failure"] == failure.kind.rawValue)
                let body = try CassetteJSON(parsing: response.body)
                #expect(body["error"] == .string("upstream_\(failure.kind.rawValue)"))
                #expect(body["upstream"] == .string(upstream.absoluteString))
                #expect(body["message"] == .string("The upstream \(upstream.absoluteString) broke the connection before a complete response."))
                #expect(server.journal.entries.map(\.outcome.kind) == [.recorded])
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
                try client.send("GET /\(failure.name) HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let (bytes, ending) = await client.readToEnd(timeout: .seconds(10))
                #expect(bytes.isEmpty)
                #expect(ending == failure.replayed)
                // And the journal says which interaction replayed which failure
                #expect(server.journal.entries.map(\.outcome.description) == ["\(decoded.name) interaction 0, which replays a reset connection"])
            }
        }
    }

    /// An upstream that breaks its body after its head: the client has the head and the bytes so far already,
    /// so it sees the answer cut where the upstream cut it (a 502 now would be a second answer); the cassette
    /// holds the failure, as when the body was held until its end.
    @Test func upstreamBreakingItsBody_cutsTheClientsAnswerThere_andIsRecordedAsThatFailure() async throws {
        let reports = ExchangeReports()
        try await withUpstream { upstream, _ in
            let cassette = try await withRecordingServer(upstream: upstream, onExchange: reports.append) { server, base in
                // When a request goes through the proxy to an upstream that declares 100 bytes and closes after 7
                let client = try RawHTTPClient(base)
                defer { client.close() }
                try client.send("GET /broken HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let (bytes, ending) = await client.readToEnd()
                // Then the client gets the upstream's head and those 7 bytes, and the connection closes
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(text.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n"))
                #expect(text.hasSuffix("\r\n\r\npart of"))
                #expect(ending == .closed)
                // And the journal and the report say what the client got: the upstream's status, then the failure
                #expect(server.journal.entries.map(\.outcome.description) == ["recorded (200)"])
                #expect(reports.all.map(\.status) == [200])
                #expect(reports.all.map(\.bodyBytes) == [7])
                return try #require(server.recordedCassette)
            }
            // And the cassette holds the transport failure, as before the body was passed on
            let recorded = try #require(cassette.interactions.first)
            #expect(
                recorded.failure == TransportFailure(kind: .reset, message: "The upstream closed the connection 93 bytes before the end of its answer's body."))
            #expect(recorded.response == nil)
        }
    }

    /// An upstream that falls silent after its head and part of its body: the recorder's timeout cuts the
    /// client's answer, and nothing is recorded, as when the body was held.
    @Test func upstreamFallingSilentInItsBody_cutsTheClientsAnswer_andRecordsNothing() async throws {
        let reports = ExchangeReports()
        try await withUpstream { upstream, _ in
            try await withRecordingServer(upstream: upstream, timeout: .seconds(1), onExchange: reports.append) { server, base in
                let client = try RawHTTPClient(base)
                defer { client.close() }
                try client.send("GET /stall-body HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let (bytes, ending) = await client.readToEnd()
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(text.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n"))
                #expect(text.hasSuffix("\r\n\r\npart of"))
                #expect(ending == .closed)
                #expect(server.journal.entries.map(\.outcome.description) == ["upstream timed out, not recorded (200)"])
                #expect(reports.all.map(\.notRecorded) == [true])
                #expect(reports.all.first?.interaction.failure?.kind == .timeout)
                #expect(server.recordedCassette?.interactions.isEmpty != false)
            }
        }
    }

    /// An upstream that sends nothing for the timeout: the limit is the recorder's, so a recording that kept
    /// it would replay a timeout the upstream never gave.
    @Test func silentUpstream_answers504SayingNothingWasRecorded_andRecordsNothing() async throws {
        try await withUpstream { upstream, _ in
            let reports = ExchangeReports()
            let file = try CassetteFixtures.temporaryFolder().appendingPathComponent("silent.json")
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            try await withRecordingServer(upstream: upstream, file: file, timeout: .seconds(1), onExchange: reports.append) { server, base in
                // When a request goes through the proxy to an upstream that never answers
                let response = try await rawExchange(base, "GET /stall HTTP/1.1\r\nHost: localhost")
                // Then the client gets a 504 naming the recorder's timeout, saying nothing was recorded
                #expect(response.status == 504)
                #expect(response.headers["X-MockServer-Upstream-Failure"] == "timeout")
                let body = try CassetteJSON(parsing: response.body)
                #expect(body["error"] == .string("upstream_timeout"))
                #expect(
                    body["message"]
                        == .string(
                            "The upstream \(upstream.absoluteString) sent nothing for 1000 ms, the recorder's upstream timeout; "
                                + "nothing was recorded for this request."))
                // And the journal, the report and the tape agree that nothing was recorded
                #expect(server.journal.entries.map(\.outcome.description) == ["upstream timed out, not recorded (504)"])
                #expect(reports.all.map(\.notRecorded) == [true])
                #expect(reports.all.map(\.index) == [nil])
                #expect(reports.all.first?.interaction.failure?.kind == .timeout)
                #expect(server.recordedCassette?.interactions.isEmpty != false)
                // And the test that recorded is told to give the upstream longer
                let error = try #require(server.unrecordedRequestsError(file: "silent.json"))
                #expect(error.code == .upstreamTimedOut)
                #expect(
                    error.description == "the upstream \(upstream.absoluteString) sent nothing for 1000 ms, the recorder's upstream timeout, "
                        + "so nothing was recorded for 1 request (the first: GET /stall) in silent.json; give it longer "
                        + "(RecordingOptions.timeout, or `recorder capture --upstream-timeout`) and record again")
            }
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
    }

    /// An upstream that cannot be reached: nothing listens, or it resets before any byte of an answer.
    @Test(arguments: ["refused", "reset"])
    func unreachableUpstream_answers502SayingNothingWasRecorded_andRecordsNothing(_ name: String) async throws {
        try await withUpstream { upstream, _ in
            let target = name == "refused" ? URL(string: "http://127.0.0.1:\(try await closedPort())")! : upstream
            let reports = ExchangeReports()
            let file = try CassetteFixtures.temporaryFolder().appendingPathComponent("down.json")
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            try await withRecordingServer(upstream: target, file: file, onExchange: reports.append) { server, base in
                // When a request goes through the proxy, with a secret in its query, then a HEAD
                let response = try await rawExchange(base, "GET /\(name)?token=s3cr3t HTTP/1.1\r\nHost: localhost")
                let head = try await rawExchange(base, "HEAD /\(name) HTTP/1.1\r\nHost: localhost")
                #expect(head.status == 502)
                // Then the client gets a 502 saying the upstream could not be reached and nothing was recorded
                #expect(response.status == 502)
                #expect(response.headers["X-MockServer-Upstream-Failure"] == name)
                let body = try CassetteJSON(parsing: response.body)
                #expect(body["message"] == .string("The upstream \(target.absoluteString) could not be reached; nothing was recorded for this request."))
                #expect(body["detail"]?.stringValue?.isEmpty == false)
                // And the journal says so, the exchange is reported as unrecorded, and the tape holds nothing
                #expect(server.journal.entries.map(\.outcome.description) == Array(repeating: "upstream unreachable, not recorded (502)", count: 2))
                #expect(reports.all.map(\.notRecorded) == [true, true])
                #expect(reports.all.map(\.index) == [nil, nil])
                #expect(reports.all.map(\.bodyBytes) == [response.body.count, 0])
                #expect(reports.all.first?.interaction.failure?.kind.rawValue == name)
                #expect(reports.all.first?.interaction.request.target == "/\(name)?token=%3Credacted%3E")
                #expect(server.recordedCassette?.interactions.isEmpty != false)
                let error = try #require(server.unrecordedRequestsError(file: "down.json"))
                #expect(error.code == .upstreamUnreachable)
                #expect(error.description.hasPrefix("the upstream \(target.absoluteString) could not be reached ("))
                #expect(
                    error.description.contains(
                        "), so nothing was recorded for 2 requests (the first: GET /\(name)?token=%3Credacted%3E) in down.json; start the upstream"))
            }
            // And no cassette file was written
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
    }

    @Test func unreachableUpstream_inPassThroughMode_saysOnlyThatItCouldNotBeReached_andTellsTheObserver() async throws {
        let target = URL(string: "http://127.0.0.1:\(try await closedPort())")!
        let observed = Lock<[String]>([])
        let configuration = CassetteServer.Configuration(
            faults: .none, onRequest: { entry in observed.withLock { $0.append(entry.description) } },
            mode: .passThrough, recording: RecordingOptions(upstream: try Upstream(target)))
        let server = try CassetteServer(cassettes: [], configuration: configuration)
        let base = try await server.start()
        let response = try await rawExchange(base, "GET /x HTTP/1.1\r\nHost: localhost")
        await server.stop()
        let body = try CassetteJSON(parsing: response.body)
        #expect(body["message"] == .string("The upstream \(target.absoluteString) could not be reached."))
        #expect(server.journal.entries.map(\.outcome.kind) == [.upstreamUnreachable])
        #expect(observed.withLock { $0 } == ["#0 GET /x → upstream unreachable, not recorded (502)"])
    }

    @Test func urlSessionErrors_couldNotConnectOrLostBeforeTheHead_areUnreachable_otherwiseTheUpstreamsFailure() {
        func unreachable(_ code: URLError.Code, headArrived: Bool) -> Bool {
            if case .unreachable = UpstreamForwarder.outcome(ofURLError: code.rawValue, message: "m", headArrived: headArrived) { return true }
            return false
        }
        #expect(unreachable(.cannotConnectToHost, headArrived: false))
        #expect(unreachable(.cannotFindHost, headArrived: false))
        #expect(unreachable(.secureConnectionFailed, headArrived: false))
        #expect(unreachable(.networkConnectionLost, headArrived: false))
        #expect(!unreachable(.networkConnectionLost, headArrived: true))
        #expect(!unreachable(.timedOut, headArrived: false))
    }
}
